import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import type { TAccountExport } from '@saljportalen/contract';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { expectAccessible, toastRegion as toasts, toastsSettled, uniqueEmail, storeTokenOutsideApp } from './support/fixtures';

/**
 * Issue 22 on a phone: 'Ladda ner mina uppgifter' saves a file with the person's data, and
 * 'Radera mitt konto' asks for the password, signs out, and the old sign-in no longer works.
 * Each test registers its own seller in the scout group, so no demo account is erased.
 */
async function signInAsFreshSeller(page: Page, prefix: string, project: string) {
  const email = uniqueEmail(prefix, project);
  const password = 'mitt-losen-22';
  const response = await page.request.post('/api/auth/register-seller', {
    data: { full_name: 'Signe Sjöberg', email, password, group_code: 'SCT482' },
  });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await storeTokenOutsideApp(page, token);
  return { email, password };
}

test.describe('my data in account settings', () => {
  test('Ladda ner mina uppgifter saves a JSON file with the account, the group and the personal link', async ({ page }, testInfo) => {
    const { email } = await signInAsFreshSeller(page, 'export', testInfo.project.name);
    await page.goto('/account/settings');
    const card = page.getByRole('heading', { name: 'Mina uppgifter' });
    await expect(card).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'kontoinställningar med mina uppgifter');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Ladda ner mina uppgifter' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^mina-uppgifter-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as TAccountExport;
    expect(data.account).toMatchObject({ full_name: 'Signe Sjöberg', email });
    expect(JSON.stringify(data)).not.toMatch(/argon2|password/i);
    expect(data.memberships).toHaveLength(1);
    expect(data.memberships[0]!.personal_link).toContain(`/s/${data.memberships[0]!.link_code}`);
    await expect(toasts(page).getByText('Dina uppgifter är nedladdade')).toBeVisible();
  });

  test('Radera mitt konto asks for the password, erases the account and signs out', async ({ page }, testInfo) => {
    const { email, password } = await signInAsFreshSeller(page, 'radera', testInfo.project.name);
    await page.goto('/account/settings');
    await toastsSettled(page);

    // From the keyboard: the button opens the dialog with the focus inside it.
    const open = page.getByRole('button', { name: 'Radera mitt konto' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Radera ditt konto?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Det går inte att ångra.')).toBeVisible();
    await expectAccessible(page, 'dialogen radera konto');

    // Escape closes it and gives the focus back.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    await page.keyboard.press('Enter');
    const field = dialog.getByLabel('Lösenord', { exact: true });
    await dialog.getByRole('button', { name: 'Radera mitt konto' }).click();
    await expect(dialog.getByText('Lösenord krävs för att radera kontot.')).toBeVisible();
    await field.fill('fel-losenord-1');
    await dialog.getByRole('button', { name: 'Radera mitt konto' }).click();
    await expect(dialog.getByText('Lösenordet är fel')).toBeVisible();
    await expect(field).toBeFocused();
    await expectAccessible(page, 'dialogen med fel lösenord');

    await field.fill(password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
    await expect(toasts(page).getByText('Ditt konto är raderat')).toBeVisible();

    // The old sign-in no longer works.
    await page.getByLabel('E-post').fill(email);
    await page.getByLabel('Lösenord', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Logga in', exact: true }).last().click();
    await expect(page).toHaveURL(/\/login$/);
    const login = await page.request.post('/api/auth/login', { data: { email, password } });
    expect(login.status()).toBe(401);
  });
});
