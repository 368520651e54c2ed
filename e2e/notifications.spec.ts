import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import {
  expectAccessible,
  signInQuickly,
  toastRegion as toasts,
  toastsSettled,
  uniqueEmail,
  storeTokenOutsideApp,
} from './support/fixtures';

/**
 * Issue 20: the mail opt-ins in account settings. A fresh seller (in the scout group) sees
 * 'Mejla mig när jag säljer' and not the weekly summary; the group admin sees both. Each box saves
 * at once and keeps its state across a reload.
 */
async function signInWithToken(page: Page, token: string) {
  await storeTokenOutsideApp(page, token);
}

test.describe('mail opt-ins', () => {
  test('a seller turns on the sale mail with the keyboard, and sees no weekly summary', async ({ page }, testInfo) => {
    const response = await page.request.post('/api/auth/register-seller', {
      data: {
        full_name: 'Ebba Ekström',
        email: uniqueEmail('notiser', testInfo.project.name),
        password: 'forsta-losen-1',
        group_code: 'SCT482',
      },
    });
    expect(response.ok()).toBe(true);
    await signInWithToken(page, ((await response.json()) as { token: string }).token);
    await page.goto('/account/settings');

    const card = page.getByRole('group', { name: 'E-postnotiser' });
    const saleMail = card.getByRole('checkbox', { name: 'Mejla mig när jag säljer' });
    await expect(saleMail).not.toBeChecked();
    await expect(card.getByText('aldrig mellan 21 och 07')).toBeVisible();
    await expect(card.getByRole('checkbox', { name: /Veckosammanfattning/ })).toHaveCount(0);
    await toastsSettled(page);
    await expectAccessible(page, 'e-postnotiser, säljare');

    await saleMail.focus();
    await page.keyboard.press('Space');
    await expect(toasts(page).getByText('Inställning uppdaterad')).toBeVisible();
    await expect(saleMail).toBeChecked();

    await page.reload();
    await expect(
      page.getByRole('group', { name: 'E-postnotiser' }).getByRole('checkbox', { name: 'Mejla mig när jag säljer' }),
    ).toBeChecked();
  });

  test('the group admin opts in to the weekly summary, and off again', async ({ page }) => {
    await signInQuickly(page, 'ledare@tallen.se');
    await page.goto('/account/settings');

    const weekly = page
      .getByRole('group', { name: 'E-postnotiser' })
      .getByRole('checkbox', { name: 'Veckosammanfattning för mina grupper' });
    await expect(weekly).toBeVisible();
    await expect(page.getByText('Inga elever nämns.')).toBeVisible();
    const before = await weekly.isChecked();
    await weekly.click();
    await expect(toasts(page).getByText('Inställning uppdaterad')).toBeVisible();
    await expect(weekly).toBeChecked({ checked: !before });
    await toastsSettled(page);
    await expectAccessible(page, 'e-postnotiser, gruppadmin');

    await page.reload();
    const reloaded = page.getByRole('checkbox', { name: 'Veckosammanfattning för mina grupper' });
    await expect(reloaded).toBeChecked({ checked: !before });
    // Back as it was, so a second run (the other viewport) starts from the same state.
    await reloaded.click();
    await expect(reloaded).toBeChecked({ checked: before });
    await expect(toasts(page).getByText('Inställning uppdaterad')).toBeVisible();
  });
});
