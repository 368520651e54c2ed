import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, signIn, uniqueEmail } from './support/fixtures';

const figure = (page: Page, label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
/** Intl writes narrow no-break spaces; compare with plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

test('a seller’s figures rise after a signed Shopify order for their link', async ({ page, baseURL }, testInfo) => {
  // A fresh seller, so the figures before the order are known to be zero.
  const email = uniqueEmail('ny.order', testInfo.project.name);
  const registration = await page.request.post('/api/auth/register-seller', {
    data: { full_name: 'Oskar Örn', email, password: 'hemligt123', group_code: 'SCT482' },
  });
  expect(registration.ok()).toBe(true);
  await signIn(page, email, 'hemligt123');
  await expect(plain(await figure(page, 'Din försäljning').textContent())).toBe('0 kr');
  await expect(plain(await figure(page, 'Din intjäning').textContent())).toBe('0 kr');

  const summary = await page.request.get('/api/me/summary', {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('saljportalen.token'))}` },
  });
  const { personal } = (await summary.json()) as { personal: { personal_link: string } };
  const linkCode = personal.personal_link.split('/s/')[1]!;

  // Two lines without a catalogue product: commission at the default 25 %.
  const order = swedishOrder({
    id: 7_990_000_000_000 + (testInfo.project.name === 'phone' ? 1 : 2),
    refCode: linkCode,
    createdAt: new Date().toISOString(),
    discountCodes: [],
    lineItems: [
      { id: 8_800_000_001, productId: null, title: 'Bivaxdukar 3-pack', price: '200.00', quantity: 2 },
      { id: 8_800_000_002, productId: null, title: 'Svensk honung 350 g', price: '120.00', quantity: 1 },
    ],
  });
  const delivery = await sendShopifyWebhook(baseURL!, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET });
  expect(delivery.status).toBe(200);
  // A redelivery of the same order counts once.
  expect((await sendShopifyWebhook(baseURL!, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);

  await page.reload();
  await expect.poll(async () => plain(await figure(page, 'Din försäljning').textContent())).toBe('520 kr');
  await expect(plain(await figure(page, 'Din intjäning').textContent())).toBe('130 kr');
  await expect(plain(await figure(page, 'Dina ordrar').textContent())).toBe('1');
  await expectAccessible(page, '/dashboard efter en order');
});

test('an unknown personal link gets a friendly Swedish page', async ({ page }) => {
  const response = await page.goto('/s/FINNSINTE');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('Länken hittades inte')).toBeVisible();
  await expectAccessible(page, '/s/okänd');
});
