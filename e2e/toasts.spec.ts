import { expect, type Page } from '@playwright/test';
import { expectAccessible, signInQuickly, test, toastsSettled, uniqueEmail } from './support/fixtures';

/** Issue 19 point 7: the toast a person sees is the one that is true now, and says so in Swedish. */

const toast = (page: Page) => page.locator('[data-sonner-toast]:not([data-removed="true"])');

test.describe('the right toast', () => {
  test('a registration that succeeds after a wrong group code leaves no failure toast behind', async ({ page }, testInfo) => {
    await page.goto('/register/seller');
    await page.getByLabel('Namn').fill('Rätta Koden');
    await page.getByLabel('E-post').fill(uniqueEmail('rattkod', testInfo.project.name));
    await page.getByLabel('Lösenord', { exact: true }).fill('rattkoden1');
    await page.getByLabel('Gruppkod').fill('FEL123');
    await page.getByRole('radio', { name: 'Nej' }).check();
    await page.getByRole('button', { name: /Registrera/ }).click();
    await expect(toast(page)).toContainText('Registrering misslyckades');
    // The close button is named in Swedish.
    await expect(toast(page).getByRole('button', { name: 'Stäng' })).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'registrering med fel gruppkod');

    await page.getByLabel('Gruppkod').fill('BJK6B2');
    await page.getByRole('button', { name: /Registrera/ }).click();
    await expect(page.getByRole('heading', { name: 'Registrering klar' })).toBeVisible();
    await expect(toast(page)).toHaveCount(0);
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await expectAccessible(page, 'registrering klar');
  });

  test('a session that ends during a catalogue download says so on the login page', async ({ page }) => {
    // The live figures' stream ends with the session and would notice first (the next test):
    // held off here, so that the download is what finds out.
    await page.route('**/api/events**', (route) => route.abort());
    await signInQuickly(page, 'noah@demo.se');
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Ladda ner katalog' })).toBeVisible();
    // Any other call of the page (a lazily loaded chart, a refetch) would find out too, and on a busy
    // machine could come first: each waits until the download has had its answer.
    let downloadAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (downloadAnswered = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/api/') && url.pathname !== '/api/catalog/me.pdf',
      async (route) => {
        await answered;
        await route.fallback();
      },
    );
    await page.route('**/api/catalog/me.pdf', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response });
      downloadAnswered();
    });
    // The session ends on the server (signed out elsewhere): its access token is refused from now on.
    expect((await page.request.post('/api/auth/logout')).ok()).toBe(true);

    await page.getByRole('button', { name: 'Ladda ner katalog' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText('Sessionen har gått ut');
    await expect(page.getByText('Fel vid nedladdning')).toHaveCount(0);
    await toastsSettled(page);
    // Still the session's toast once every answer is in.
    await expect(page.getByRole('button', { name: 'Logga in', exact: true }).last()).toBeVisible();
    await expect(toast(page)).toHaveCount(1);
    await expect(toast(page)).toContainText('Sessionen har gått ut');
    await expectAccessible(page, 'inloggningen efter en avslutad session');
  });

  test('a session ended elsewhere takes an open dashboard to the login page with one toast', async ({ page }) => {
    await signInQuickly(page, 'noah@demo.se');
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Ladda ner katalog' })).toBeVisible();
    expect((await page.request.post('/api/auth/logout')).ok()).toBe(true);

    // Nobody clicks anything: the stream of live figures ends with the session.
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page)).toContainText('Sessionen har gått ut');
    await toastsSettled(page);
    await expect(toast(page)).toHaveCount(1);
    await expectAccessible(page, 'inloggningen efter en session som avslutats någon annanstans');
  });
});
