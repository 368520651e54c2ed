import { expect, type Page } from '@playwright/test';
import { stockholmToday } from '@saljportalen/contract';
import { apiToken, expectAccessible, storeTokenOutsideApp, test, toastRegion, uniqueEmail } from './support/fixtures';

/**
 * Issue 33 point 5: focus never drops to the page. Each action here replaces the control that had
 * focus (a button that opens a form in its place, a form that closes into its result, a form
 * remounted with what was saved); done by keyboard, focus must land on what replaced it, never on
 * <body>, where a screen reader falls silent and the next Tab starts from the top.
 */

/** The focused element, named for a failure message: never <body>. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active && active !== document.body ? `${active.tagName.toLowerCase()} ${active.textContent?.trim() ?? ''}`.trim() : 'body';
  });

async function pressOn(page: Page, control: ReturnType<Page['getByRole']>, key = 'Enter') {
  await control.focus();
  await page.keyboard.press(key);
}

function inThirtyDays(): string {
  const [year, month, day] = stockholmToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 30)).toISOString().slice(0, 10);
}

/** A group of its own with a teacher of its own, so that no other test's goal meets this one. */
async function teacherOfNewGroup(page: Page, project: string): Promise<string> {
  const superadmin = await apiToken(page.request, 'admin@saljportalen.se');
  const email = uniqueEmail('fokus.larare', project);
  const password = 'fokus-losen-1';
  const created = await page.request.post('/api/admin/groups/create', {
    headers: { authorization: `Bearer ${superadmin}` },
    data: { group_name: `Fokusklassen ${project} ${Date.now()}`, admin: { email, password, full_name: 'Fia Fokus' } },
  });
  expect(created.ok()).toBe(true);
  return apiToken(page.request, email, password);
}

test.describe('focus after an action that replaces the focused control', () => {
  test("'Sätt ett eget mål' opens its form at its field, and saving, cancelling and removing return to the card's button", async ({
    page,
  }, testInfo) => {
    const response = await page.request.post('/api/auth/register-seller', {
      data: {
        full_name: 'Frida Fokus',
        email: uniqueEmail('fokus', testInfo.project.name),
        password: 'fokus-losen-1',
        group_code: 'SCT482',
      },
    });
    expect(response.ok()).toBe(true);
    await storeTokenOutsideApp(page, ((await response.json()) as { token: string }).token);
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Ditt eget mål' });

    await pressOn(page, card.getByRole('button', { name: 'Sätt ett eget mål' }));
    await expect(card.getByLabel('Mitt mål i kronor')).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('500');
    await page.keyboard.press('Enter');
    await expect(toastRegion(page).getByText('Ditt mål är sparat')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Ändra mitt mål' })).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(card.getByLabel('Mitt mål i kronor')).toBeFocused();
    await pressOn(page, card.getByRole('button', { name: 'Avbryt' }));
    await expect(card.getByRole('button', { name: 'Ändra mitt mål' })).toBeFocused();

    await pressOn(page, card.getByRole('button', { name: 'Ta bort mitt mål' }));
    await expect(toastRegion(page).getByText('Ditt mål är borttaget')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Sätt ett eget mål' }), await focusedElement(page)).toBeFocused();
    await expectAccessible(page, 'eget mål borttaget');
  });

  test("saving or removing the class goal keeps focus on the goal form's button", async ({ page }, testInfo) => {
    await storeTokenOutsideApp(page, await teacherOfNewGroup(page, testInfo.project.name));
    await page.goto('/dashboard');
    await page.getByText('Klassens mål och topplista').click();
    const form = page.getByRole('form', { name: 'Klassens mål' });
    await form.getByLabel('Vad samlar ni till?').fill('Klassresa');
    await form.getByLabel('Mål i kronor').fill('20000');
    await form.getByLabel('Sista dag').fill(inThirtyDays());
    await pressOn(page, form.getByRole('button', { name: 'Spara målet' }));
    await expect(toastRegion(page).getByText('Målet är sparat')).toBeVisible();
    // The form is drawn anew with the saved goal: its button is now 'Spara ändringen'.
    await expect(form.getByRole('button', { name: 'Spara ändringen' }), await focusedElement(page)).toBeFocused();

    await pressOn(page, form.getByRole('button', { name: 'Ta bort målet' }));
    await expect(toastRegion(page).getByText('Målet är borttaget')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Spara målet' }), await focusedElement(page)).toBeFocused();
  });

  test("a registration by keyboard ends with focus on 'Registrering klar'", async ({ page }, testInfo) => {
    await page.goto('/register/seller');
    await page.getByLabel('Namn').fill('Filip Fokus');
    await page.getByLabel('E-post').fill(uniqueEmail('fokus.registrering', testInfo.project.name));
    await page.getByLabel('Lösenord', { exact: true }).fill('fokus-losen-1');
    await page.getByLabel('Gruppkod').fill('SCT482');
    await page.getByRole('radio', { name: 'Nej' }).check();
    await pressOn(page, page.getByRole('button', { name: 'Registrera' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Registrering klar' }), await focusedElement(page)).toBeFocused();
    // From the title, the next Tab reaches the way on, not the top of the page.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Gå till din översikt' })).toBeFocused();
  });
});
