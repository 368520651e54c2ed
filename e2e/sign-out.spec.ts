import { expect, type Page } from '@playwright/test';
import { TOKEN_STORAGE_KEY, expectAccessible, signIn, test, toastRegion, toastsSettled } from './support/fixtures';

/**
 * Signing out from the header (folded into the menu on a phone, links on a desktop) and from the
 * admin area: a journey of its own, so that it runs on both viewports while the rest of signing in
 * runs on the phone (playwright.config.ts, decision 076).
 */

const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);

test.describe('sign-out', () => {
  // The header's 'Logga ut' (folded into the menu on a phone) and the admin area's: one handler.
  const places = [
    { name: 'the header', email: 'noah@demo.se', path: '/dashboard' },
    { name: 'the admin area', email: 'admin@saljportalen.se', path: '/admin' },
  ];

  async function clickLogOut(page: Page): Promise<void> {
    const menu = page.getByRole('button', { name: 'Öppna menyn' });
    const logOut = page.getByRole('button', { name: 'Logga ut' }).last();
    // The header first: asked before it is there, a phone's menu seems absent and stays closed.
    await expect(menu.or(logOut).first()).toBeVisible();
    if (await menu.isVisible()) await menu.click();
    await logOut.click();
  }

  for (const place of places) {
    test(`Logga ut in ${place.name} ends the session on the server: the next visit stays signed out`, async ({ page }) => {
      await signIn(page, place.email);
      await page.goto(place.path);
      await clickLogOut(page);
      await expect(toastRegion(page)).toContainText('Utloggad');
      await expect(page).toHaveURL(/\/login$/);
      expect(await storedToken(page)).toBeNull();
      // The refresh cookie was revoked: nothing signs the person back in.
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/login$/);
    });

    test(`Logga ut in ${place.name} that never reaches the server says so and keeps the person signed in`, async ({ page }) => {
      await signIn(page, place.email);
      await page.goto(place.path);
      await page.route('**/api/auth/logout', (route) => route.abort('internetdisconnected'));
      await clickLogOut(page);
      // The refresh cookie is still valid and would sign the person back in: no 'Utloggad'.
      await expect(toastRegion(page)).toContainText('Utloggningen misslyckades');
      await expect(toastRegion(page)).toContainText('Servern kunde inte nås, så du är fortfarande inloggad. Försök igen.');
      await expect(toastRegion(page)).not.toContainText('Utloggad');
      expect(page.url()).toContain(place.path);
      expect(await storedToken(page)).not.toBeNull();
      await toastsSettled(page);
      await expectAccessible(page, `${place.path} efter misslyckad utloggning`);

      // Trying again once the server answers signs out for real (on a phone the toast first goes,
      // as it covers the admin area's button).
      // The toast leaves by itself after its time, which on a busy machine may have passed already:
      // closing it only saves the wait, and its leaving is what the test waits for.
      await toastRegion(page)
        .locator('[data-sonner-toast] button[data-close-button]')
        .click({ timeout: 1_000 })
        .catch(() => undefined);
      await expect(toastRegion(page).locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
      await page.unroute('**/api/auth/logout');
      await clickLogOut(page);
      await expect(toastRegion(page)).toContainText('Utloggad');
      await expect(page).toHaveURL(/\/login$/);
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/login$/);
    });
  }
});
