import { expect, type Page } from '@playwright/test';
import { expectAccessible, forgedToken, signIn, test, toastRegion, TOKEN_STORAGE_KEY } from './support/fixtures';

/**
 * Issue 19 point 9: the installed app on a phone without network. The dashboard is loaded once
 * online (which saves it, and lets the service worker install the app), then the network goes.
 */
// The service worker is this spec's subject (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

const CACHE_KEY = 'saljportalen.dashboard-cache';

const mySales = (page: Page) => page.locator('dt', { hasText: /^Din försäljning$/ }).locator('xpath=following-sibling::dd[1]');

const savedDashboard = (page: Page) => page.evaluate((key) => localStorage.getItem(key) ?? '', CACHE_KEY);

async function loadDashboardOnce(page: Page): Promise<{ sales: string; link: string }> {
  await signIn(page, 'elsa@demo.se');
  const sales = mySales(page);
  await expect(sales).toContainText('kr');
  // The service worker has installed the app's files, and serves this page from the next load on,
  // as for an installed app opened again …
  await expect
    .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), { timeout: 30_000 })
    .toBe(true);
  await page.reload();
  await expect(sales).toContainText('kr');
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // … and the dashboard's answers are saved.
  await expect.poll(() => savedDashboard(page)).toContain('"summary"');
  return { sales: (await sales.textContent())!, link: await page.getByLabel('Länk').inputValue() };
}

test.describe('the installed app offline', () => {
  test('shows the last figures and when they were fetched, the link to copy, and that it is offline; refreshes when the network returns', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const before = await loadDashboardOnce(page);

    await context.setOffline(true);
    await page.reload();
    const notice = page.getByRole('status').filter({ hasText: 'Du är offline' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(/Siffrorna hämtades \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(page.getByText('Något gick fel vid laddning av data')).toHaveCount(0);
    await expect(mySales(page)).toHaveText(before.sales);
    await expect(page.getByRole('heading', { name: 'Hej, Elsa!' })).toBeVisible();
    await expect(page.getByLabel('Länk')).toHaveValue(before.link);
    await page.getByRole('button', { name: 'Kopiera länk' }).click();
    await expect(page.getByRole('button', { name: 'Kopierad!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(before.link);
    await expectAccessible(page, '/dashboard offline');

    // Back online: fetched again at once, and the notice goes.
    const refetched = page.waitForResponse((response) => response.url().endsWith('/api/me/summary') && response.ok());
    await context.setOffline(false);
    await refetched;
    await expect(page.getByText('Du är offline')).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('still opens after the access token has run out, renews the session online, and forgets the dashboard at sign-out', async ({
    page,
    context,
  }) => {
    await loadDashboardOnce(page);
    // The next morning: the 15-minute access token has expired; the refresh cookie is still good.
    const expired = forgedToken({ sub: '1', exp: Math.floor(Date.now() / 1000) - 3600 });
    await page.evaluate(([key, token]) => localStorage.setItem(key!, token!), [TOKEN_STORAGE_KEY, expired]);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText('Du är offline')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Sessionen har gått ut')).toHaveCount(0);

    const renewed = page.waitForResponse((response) => response.url().endsWith('/api/auth/refresh') && response.ok());
    await context.setOffline(false);
    await renewed;
    await expect(page.getByText('Du är offline')).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard$/);

    // Signing out takes the saved dashboard with it: offline, the next person gets the login page.
    const menu = page.getByRole('button', { name: 'Öppna menyn' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'Logga ut' }).last().click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => savedDashboard(page)).not.toContain('"summary"');
    await context.setOffline(true);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Elsa')).toHaveCount(0);
  });

  test('a session that cannot be checked, with nothing saved, is not sent to sign in: it says so and tries again', async ({
    page,
    context,
  }) => {
    await loadDashboardOnce(page);
    await page.goto('/account/settings');
    await expect(page.getByRole('form', { name: 'Profil' })).toBeVisible();
    // The app is opened again later: nothing saved to show, and the access token has run out; the
    // refresh cookie is still good. (Set before the page's own code runs, as a new start finds it.)
    const expired = forgedToken({ sub: '1', exp: Math.floor(Date.now() / 1000) - 3600 });
    await context.addInitScript(
      ([key, token, cacheKey]) => {
        localStorage.setItem(key!, token!);
        localStorage.removeItem(cacheKey!);
      },
      [TOKEN_STORAGE_KEY, expired, CACHE_KEY],
    );

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'Servern svarar inte just nu' })).toBeVisible();
    await expect(page).toHaveURL(/\/account\/settings$/);
    await expect(page.getByText('Sessionen har gått ut')).toHaveCount(0);
    await expectAccessible(page, 'session som inte kan kontrolleras');

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Försök igen' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Servern svarar inte just nu' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/account\/settings$/);
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('E-post')).toHaveValue('elsa@demo.se');
  });

  test('without a network, the account settings and the catalogue say they need one at once, and nothing runs later by itself', async ({
    page,
    context,
  }) => {
    await loadDashboardOnce(page);
    const catalogueCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/catalog/')) catalogueCalls.push(request.url());
    });
    await context.setOffline(true);

    // A page whose figures were never fetched here: a message, not placeholders for ever.
    // Within the app, as its menu does (on a phone the link is inside the menu).
    await page.evaluate(() => {
      history.pushState(null, '', '/account/settings');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const profileFailed = page.getByRole('alert').filter({ hasText: 'Kunde inte ladda profildata.' });
    await expect(profileFailed).toContainText('Ingen anslutning. Det här kräver internet, försök igen när du är ansluten.');
    await expectAccessible(page, 'kontoinställningar offline');

    // The catalogue is asked for once: it fails at once and says why, and the button is ready again.
    await page.goBack();
    const download = page.getByRole('button', { name: 'Ladda ner katalog' });
    await download.click();
    await expect(toastRegion(page)).toContainText('Ingen anslutning. Det här kräver internet, försök igen när du är ansluten.');
    await expect(download).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Laddar ner...' })).toHaveCount(0);

    // Back online, the dashboard is fetched again (its own doing), and the catalogue is not.
    catalogueCalls.length = 0;
    const refetched = page.waitForResponse((response) => response.url().endsWith('/api/me/summary') && response.ok());
    await context.setOffline(false);
    await refetched;
    await expect(page.getByText('Du är offline')).toHaveCount(0);
    expect(catalogueCalls).toEqual([]);
  });
});
