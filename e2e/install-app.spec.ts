import { expect } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { expectAccessible } from './support/fixtures';

// The service worker is this spec's subject (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

const INSTALL_DISMISSED_KEY = 'saljportalen.install-banner-dismissed';

test.describe('installable app', () => {
  test('the manifest’s icons exist, the iOS icon is linked and the service worker registers at start', async ({ page }) => {
    await page.goto('/login');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(manifestHref!)).json()) as {
      name: string;
      lang: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Säljportalen', lang: 'sv', display: 'standalone' });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.ok(), icon.src).toBe(true);
      expect(response.headers()['content-type']).toContain(icon.type);
    }
    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const appleResponse = await page.request.get(appleIcon!);
    expect(appleResponse.headers()['content-type']).toContain('image/png');

    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), { timeout: 15_000 })
      .toBe(true);
  });

  test('on Chromium the banner waits for the install event and opens the browser’s own prompt', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Logga in' })).toBeVisible();
    // Without the browser's install event there is nothing to offer.
    await expect(page.getByRole('region', { name: 'Installera Säljportalen' })).toHaveCount(0);

    // Chromium fires beforeinstallprompt when the app is installable; headless Chromium never
    // decides that, so the test hands the page the event a real Chrome would.
    await page.evaluate(() => {
      const state = window as unknown as { prompted: number };
      state.prompted = 0;
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {
          state.prompted += 1;
        },
        userChoice: Promise.resolve({ outcome: 'accepted' as const }),
      });
      window.dispatchEvent(event);
    });
    const banner = page.getByRole('region', { name: 'Installera Säljportalen' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Installera' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted: number }).prompted)).toBe(1);
    // Accepted: installed, so the banner goes.
    await expect(banner).toBeHidden();
  });

  test.describe('on iPhone Safari', () => {
    test.use({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    });

    test('the banner opens the three-step dialog, and its dismissal survives a reload', async ({ page }) => {
      await page.goto('/login');
      const banner = page.getByRole('region', { name: 'Installera Säljportalen' });
      await expect(banner).toBeVisible();
      await expectAccessible(page, 'installationsbanner');

      await banner.getByRole('button', { name: 'Installera' }).click();
      const dialog = page.getByRole('dialog', { name: 'Lägg till på hemskärmen' });
      await expect(dialog).toBeVisible();
      const steps = dialog.getByRole('listitem');
      await expect(steps).toHaveCount(3);
      await expect(steps.nth(0)).toContainText('Tryck på Dela');
      await expect(steps.nth(1)).toContainText('Välj Lägg till på hemskärmen');
      await expect(steps.nth(2)).toContainText('Tryck på Lägg till');
      await expectAccessible(page, 'iOS-instruktionen');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      // Closing the instructions is not dismissing the banner.
      await expect(banner).toBeVisible();

      await banner.getByRole('button', { name: 'Inte nu' }).click();
      await expect(banner).toBeHidden();
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Logga in' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Installera Säljportalen' })).toHaveCount(0);
      expect(await page.evaluate((key) => localStorage.getItem(key), INSTALL_DISMISSED_KEY)).toBe('1');
    });
  });
});
