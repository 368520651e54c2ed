import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import type { TGroupTotalsResponse, TMeSummaryResponse } from '@saljportalen/contract';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, TOKEN_STORAGE_KEY, expectAccessible, signIn, toastRegion, uniqueEmail } from './support/fixtures';

/**
 * Issue 20 §4, live figures: a signed Shopify order for the seller's link changes the open
 * dashboard's own figures, the group's totals and the leaderboard, and shows the toast
 * 'Ny försäljning! +249 kr', all without a reload.
 */
const figure = (page: Page, label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
/** Intl writes no-break spaces; compare with plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ');
const wholeNumber = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
const kronor = (sek: number) => plain(`${wholeNumber.format(sek)} kr`);

test('a signed webhook changes the open dashboard and shows the toast, with no reload', async ({ page, baseURL }, testInfo) => {
  const email = uniqueEmail('live', testInfo.project.name);
  const registration = await page.request.post('/api/auth/register-seller', {
    data: { full_name: 'Vera Vind', email, password: 'hemligt123', group_code: 'SCT482' },
  });
  expect(registration.ok()).toBe(true);

  const streamOpened = page.waitForResponse((response) => response.url().includes('/api/events?') && response.status() === 200);
  await signIn(page, email, 'hemligt123');
  await streamOpened;
  await expect(plain(await figure(page, 'Din försäljning').textContent())).toBe('0 kr');
  const myRow = page.getByRole('row').filter({ has: page.getByText('Du', { exact: true }) });

  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
  const headers = { authorization: `Bearer ${token}` };
  const summary = (await (await page.request.get('/api/me/summary', { headers })).json()) as TMeSummaryResponse;
  const before = (await (await page.request.get('/api/group/totals', { headers })).json()) as TGroupTotalsResponse;
  const linkCode = summary.personal.personal_link!.split('/s/')[1]!;
  await expect(figure(page, 'Totalt sålt')).toHaveText(new RegExp(`^${kronor(before.totals.total_sales).replace(/ /g, '\\s')}$`));

  // A mark on this very document: a reload would take it away.
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
  const navigations = await page.evaluate(() => performance.getEntriesByType('navigation').length);

  const order = swedishOrder({
    id: 7_995_000_000_000 + (testInfo.project.name === 'phone' ? 1 : 2),
    refCode: linkCode,
    createdAt: new Date().toISOString(),
    discountCodes: [],
    lineItems: [{ id: 8_900_000_001, productId: null, title: 'Bivaxdukar 3-pack', price: '249.00', quantity: 1 }],
  });
  expect((await sendShopifyWebhook(baseURL!, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);

  await expect(toastRegion(page).getByText(/^Ny försäljning! \+249\skr$/)).toBeVisible({ timeout: 5_000 });
  await expect.poll(async () => plain(await figure(page, 'Din försäljning').textContent()), { timeout: 5_000 }).toBe('249 kr');
  await expect.poll(async () => plain(await figure(page, 'Totalt sålt').textContent())).toBe(kronor(before.totals.total_sales + 249));
  await expect(myRow).toContainText(/249\skr/);
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigations);

  await page.screenshot({ path: testInfo.outputPath(`live-${testInfo.project.name}.png`), fullPage: false });
  await expectAccessible(page, '/dashboard med en ny försäljning');
});
