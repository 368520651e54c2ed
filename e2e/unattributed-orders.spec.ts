import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, signInQuickly, uniqueEmail } from './support/fixtures';

const SUPERADMIN = 'admin@saljportalen.se';

/** The web's own money format (spec §1: SEK, zero decimals, Swedish). */
const sek = (amount: number) =>
  new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount);

/** The toast showing now (spec §9: one at a time; the one it replaced may still be fading out). */
const toast = (page: Page) => page.locator('[data-sonner-toast][data-front="true"]:not([data-removed="true"])');

/** The figure on the card (or tile) with this label: the paragraph after the label's. */
const card = (page: Page, label: string): Locator =>
  page.locator('p', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::p[1]');

/** The phone and desktop runs share one database: names and Shopify ids of their own. */
const runId = (testInfo: TestInfo) => `${testInfo.project.name} ${Date.now().toString(36)}`;
let nextOrderId = 7_970_000_000_000 + (Date.now() % 1_000_000) * 10;

/** A paid Shopify order that carries no personal link code at all: no ref, no landing ref, no discount code. */
async function orderWithoutRef(baseURL: string, name: string, lines: { title: string; price: string; quantity: number }[]) {
  const id = nextOrderId++;
  const order = swedishOrder({
    id,
    name,
    refCode: null,
    landingSite: '/products/bivaxdukar',
    discountCodes: [],
    createdAt: new Date().toISOString(),
    lineItems: lines.map((line, index) => ({ id: id * 10 + index, productId: null, ...line })),
  });
  const delivery = await sendShopifyWebhook(baseURL, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET });
  expect(delivery.status).toBe(200);
}

test.describe('orders without a seller', () => {
  test('an order without a ref is listed, assigned to a seller, and then counts in the group', async ({ page, baseURL }, testInfo) => {
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const run = runId(testInfo);

    // A new group with an administrator and one seller: all figures start at zero.
    const groupName = `E2E Tilldelning ${run}`;
    const sellerName = `Tilda Tilldelad ${testInfo.project.name}`;
    const created = await page.request.post('/api/admin/groups/create', {
      headers,
      data: {
        group_name: groupName,
        admin: { email: uniqueEmail('tilldelning.admin', testInfo.project.name), password: 'hemligt1', full_name: 'Greta Gruppadmin' },
      },
    });
    expect(created.ok()).toBe(true);
    const groupId = ((await created.json()) as { group: { id: number } }).group.id;
    const added = await page.request.post(`/api/admin/groups/${groupId}/add-user`, {
      headers,
      data: { email: uniqueEmail('tilda', testInfo.project.name), role: 'seller', full_name: sellerName },
    });
    expect(added.ok()).toBe(true);

    await page.goto(`/admin/groups/${groupId}`);
    const sellerRow = page.getByRole('row', { name: new RegExp(sellerName) });
    await expect(sellerRow).toContainText(sek(0));
    await expect(card(page, 'Total försäljning')).toHaveText(sek(0));

    // Shopify sends an order that carries no personal link code: 2 × 250 kr.
    const orderName = `#E2E-${run.replace(' ', '-')}`;
    await orderWithoutRef(baseURL!, orderName, [{ title: 'Bivaxdukar 3-pack', price: '250.00', quantity: 2 }]);

    // The overview counts it and leads to the list.
    await page.getByRole('link', { name: 'Översikt', exact: true }).click();
    const overview = (await (await page.request.get('/api/admin/overview', { headers })).json()) as { unattributed_orders: number };
    expect(overview.unattributed_orders).toBeGreaterThan(0);
    const tile = page.getByRole('link', { name: /Ordrar utan säljare/ });
    await expect(tile).toContainText(String(overview.unattributed_orders));
    await expectAccessible(page, '/admin med ordrar utan säljare');
    await tile.click();
    await expect(page).toHaveURL(/\/admin\/orders\/unattributed$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Ordrar utan säljare' })).toBeVisible();
    // The spec's four tabs and issue 21's two; unattributed orders have no tab of their own.
    await expect(page.getByRole('navigation', { name: 'Adminmeny' }).getByRole('link')).toHaveText([
      'Översikt',
      'Grupper',
      'Säljare',
      'Avräkningar',
      'Webbhookar',
      'Händelselogg',
    ]);
    const orderRow = page.getByRole('row', { name: new RegExp(orderName) });
    await expect(orderRow).toContainText(sek(500));
    await expect(orderRow).toContainText(sek(125));
    await expectAccessible(page, '/admin/orders/unattributed');

    // Assign: nothing chosen is refused in the form.
    await orderRow.getByRole('button', { name: `Tilldela order ${orderName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Tilldela order ${orderName}` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Tilldela', exact: true }).click();
    await expect(dialog.getByText('Välj en grupp')).toBeVisible();
    await expect(dialog.getByText('Välj en säljare')).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Säljare' })).toBeDisabled();
    await expectAccessible(page, 'tilldela utan val');

    // The group by keyboard: type part of its name, Enter takes the first match.
    const groupPicker = dialog.getByRole('combobox', { name: 'Grupp', exact: true });
    await groupPicker.fill(run);
    await expect(dialog.getByRole('option')).toHaveText([groupName]);
    await groupPicker.press('Enter');
    await expect(groupPicker).toHaveValue(groupName);
    // Escape in the open list closes the list, not the dialog.
    const personPicker = dialog.getByRole('combobox', { name: 'Säljare' });
    await expect(personPicker).toBeEnabled();
    await personPicker.click();
    await expect(dialog.getByRole('option')).toHaveCount(2);
    await expect(dialog.getByRole('option').first()).toContainText('Greta Gruppadmin (Admin)');
    await expectAccessible(page, 'tilldela med personerna i gruppen');
    await personPicker.press('Escape');
    await expect(dialog).toBeVisible();
    await personPicker.fill('Tilda');
    await dialog.getByRole('option', { name: new RegExp(`^${sellerName}`) }).click();
    await dialog.getByRole('button', { name: 'Tilldela', exact: true }).click();
    await expect(toast(page)).toContainText('Order tilldelad');
    await expect(toast(page)).toContainText(`${orderName} räknas nu till ${sellerName} i ${groupName}.`);
    await expect(dialog).toBeHidden();
    await expect(orderRow).toHaveCount(0);

    // The seller's and the group's figures now include it.
    await page.goto(`/admin/groups/${groupId}`);
    await expect(sellerRow).toContainText(sek(500));
    await expect(sellerRow).toContainText(sek(125));
    await expect(card(page, 'Total försäljning')).toHaveText(sek(500));
    await expect(card(page, 'Ordrar')).toHaveText('1');
  });

  test('an order another admin assigned meanwhile is not moved: Misslyckades att uppdatera', async ({ page, baseURL }, testInfo) => {
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const run = runId(testInfo);
    const groupName = `E2E Krock ${run}`;
    const created = await page.request.post('/api/admin/groups/create', {
      headers,
      data: {
        group_name: groupName,
        admin: { email: uniqueEmail('krock.admin', testInfo.project.name), password: 'hemligt1', full_name: 'Kalle Klubbadmin' },
      },
    });
    const groupId = ((await created.json()) as { group: { id: number } }).group.id;
    await page.request.post(`/api/admin/groups/${groupId}/add-user`, {
      headers,
      data: { email: uniqueEmail('krock.saljare', testInfo.project.name), role: 'seller', full_name: 'Sara Säljare' },
    });
    const orderName = `#KROCK-${run.replace(' ', '-')}`;
    await orderWithoutRef(baseURL!, orderName, [{ title: 'Svensk honung 350 g', price: '120.00', quantity: 1 }]);

    await page.goto('/admin/orders/unattributed');
    const orderRow = page.getByRole('row', { name: new RegExp(orderName) });
    await orderRow.getByRole('button', { name: `Tilldela order ${orderName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Tilldela order ${orderName}` });
    await dialog.getByRole('combobox', { name: 'Grupp', exact: true }).fill(run);
    await dialog.getByRole('option', { name: groupName, exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Säljare' }).fill('Sara');
    await dialog.getByRole('option', { name: /^Sara Säljare/ }).click();

    // Meanwhile another admin gives the order to the group's administrator.
    const members = (await (await page.request.get(`/api/admin/groups/${groupId}/members`, { headers })).json()) as {
      items: { membership_id: number; full_name: string }[];
    };
    const unattributed = (await (await page.request.get('/api/admin/orders/unattributed?page_size=200', { headers })).json()) as {
      items: { order_id: number; order_name: string }[];
    };
    const orderId = unattributed.items.find((order) => order.order_name === orderName)!.order_id;
    const kalle = members.items.find((member) => member.full_name === 'Kalle Klubbadmin')!;
    const elsewhere = await page.request.post(`/api/admin/orders/${orderId}/assign`, {
      headers,
      data: { membership_id: kalle.membership_id, only_if_unattributed: true },
    });
    expect(elsewhere.ok()).toBe(true);

    await dialog.getByRole('button', { name: 'Tilldela', exact: true }).click();
    await expect(toast(page)).toContainText('Misslyckades att uppdatera');
    await expect(toast(page)).toContainText('Ordern har redan tilldelats en säljare');
    await expect(dialog).toBeHidden();
    await expect(orderRow).toHaveCount(0);
    await expectAccessible(page, 'tilldelning som krockade');

    // It stayed with the administrator.
    await page.goto(`/admin/groups/${groupId}`);
    await expect(page.getByRole('row', { name: /Kalle Klubbadmin/ })).toContainText(sek(120));
    await expect(page.getByRole('row', { name: /Sara Säljare/ })).toContainText(sek(0));
  });
});
