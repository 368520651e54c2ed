import { expect, type Page, type TestInfo } from '@playwright/test';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, signInQuickly, test, uniqueEmail } from './support/fixtures';

const SUPERADMIN = 'admin@saljportalen.se';

/** The toast showing now (spec §9: one at a time). */
const toast = (page: Page) => page.locator('[data-sonner-toast][data-front="true"]:not([data-removed="true"])');

/** A card on a phone, a table row on a desktop: the one that holds this text. */
const entry = (page: Page, testInfo: TestInfo, text: string) =>
  page.getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row').filter({ hasText: text });

/** An event's row by the element that names it ('orders/create · nr 12'): `nr 1` must not find `nr 12`. */
const eventEntry = (page: Page, testInfo: TestInfo, id: number) =>
  page.getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row').filter({ has: page.getByText(new RegExp(`· nr ${id}$`)) });

/** The phone and desktop runs share one database: Shopify ids of their own. */
let nextOrderId = 7_980_000_000_000 + (Date.now() % 1_000_000) * 10;

const buyer = {
  first_name: 'Astrid',
  last_name: 'Lindgren',
  name: 'Astrid Lindgren',
  address1: 'Dalagatan 46',
  city: 'Vimmerby',
  zip: '598 37',
  phone: '+46 70 123 45 67',
  country: 'Sweden',
};

test.describe("the superadmin's webhooks and audit log", () => {
  test("'Webbhookar' lists events by status, shows a failed event's error, masks every buyer, and runs an event again", async ({
    page,
    baseURL,
  }, testInfo) => {
    await signInQuickly(page, SUPERADMIN);
    // A paid order with a buyer in every place Shopify puts one, and an order Shopify sent in a shape we cannot read.
    const id = nextOrderId++;
    const orderName = `#W${id % 100000}`;
    const order = {
      ...swedishOrder({ id, name: orderName, refCode: null, createdAt: new Date().toISOString() }),
      email: 'astrid.lindgren@exempel.se',
      phone: '070-123 45 67',
      billing_address: buyer,
      shipping_address: buyer,
    };
    expect((await sendShopifyWebhook(baseURL!, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);
    const brokenId = nextOrderId++;
    const broken = await sendShopifyWebhook(
      baseURL!,
      'orders/create',
      { id: brokenId, line_items: 'inga', email: 'astrid.lindgren@exempel.se' },
      { secret: E2E_WEBHOOK_SECRET },
    );
    expect(broken.status).toBe(200);
    const brokenEventId = ((await broken.json()) as { event_id: number }).event_id;
    // An order of one line: its outcome counts '1 ny rad' (issue 33 point 8).
    const singleId = nextOrderId++;
    const singleName = `#E${singleId % 100000}`;
    const single = swedishOrder({
      id: singleId,
      name: singleName,
      refCode: null,
      createdAt: new Date().toISOString(),
      lineItems: [{ id: singleId, productId: 1, title: 'Tvål med havtorn', price: '89.00', quantity: 1 }],
    });
    expect((await sendShopifyWebhook(baseURL!, 'orders/create', single, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);

    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Adminmeny' }).getByRole('link', { name: 'Webbhookar' }).click();
    await expect(page.getByRole('heading', { name: 'Webbhookar', level: 1 })).toBeVisible();
    const processed = entry(page, testInfo, 'Ny order').filter({ hasText: 'Behandlad' }).first();
    await expect(processed).toBeVisible();
    await expectAccessible(page, 'Webbhookar');
    await expect(entry(page, testInfo, `Order ${singleName} `)).toContainText('1 ny rad,');

    // What the portal kept of what Shopify sent is there to read: what the ledger needs, no buyer (decision 035).
    await processed.getByText('Visa innehåll').click();
    const content = processed.locator('pre');
    await expect(content).toContainText('"line_items"');
    const shown = await page.locator('body').innerText();
    for (const personal of ['Astrid', 'Lindgren', 'astrid.lindgren@exempel.se', 'Dalagatan', 'Vimmerby', '70 123 45 67']) {
      expect(shown, personal).not.toContain(personal);
    }
    await expectAccessible(page, 'Webbhookar med innehåll');

    // Only the failed ones, with their error and 'Kör igen'.
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await expect(page).toHaveURL(/status=failed/);
    const failed = eventEntry(page, testInfo, brokenEventId);
    await expect(failed).toContainText('Misslyckad');
    await expect(failed).toContainText('Oväntat innehåll i orders/create');
    await expect(entry(page, testInfo, 'Behandlad')).toHaveCount(0);
    await expectAccessible(page, 'Misslyckade webbhookar');

    // This one cannot be read however often it is run: it stays failed, and the toast says so.
    await failed.getByRole('button', { name: `Kör igen händelse nr ${brokenEventId}` }).click();
    await expect(toast(page)).toContainText('Händelsen misslyckades igen');
    if (testInfo.project.name === 'phone') await expect(failed).toContainText('2 försök');
    // On a desktop the attempts have a column of their own: received, status, result, attempts.
    else await expect(failed.getByRole('cell').nth(3)).toHaveText('2');
    await expectAccessible(page, 'Webbhookar efter Kör igen');
  });

  test("'Händelselogg' shows who did what to which group, filtered by action and a page at a time", async ({ page }, testInfo) => {
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const run = `${testInfo.project.name} ${Date.now().toString(36)}`;
    const created = await page.request.post('/api/admin/groups/create', { headers, data: { group_name: `E2E Logg ${run}` } });
    expect(created.ok()).toBe(true);
    const groupId = ((await created.json()) as { group: { id: number } }).group.id;
    // More renames than one page holds.
    for (let index = 1; index <= 26; index++) {
      const renamed = await page.request.post(`/api/admin/group/${groupId}/rename`, {
        headers,
        data: { name: `E2E Logg ${run} v${index}` },
      });
      expect(renamed.ok()).toBe(true);
    }
    const finalName = `E2E Logg ${run} v26`;

    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Adminmeny' }).getByRole('link', { name: 'Händelselogg' }).click();
    await expect(page.getByRole('heading', { name: 'Händelselogg', level: 1 })).toBeVisible();
    const newest = entry(page, testInfo, 'Grupp omdöpt').first();
    await expect(newest).toContainText(finalName);
    await expect(newest).toContainText('Sara Superadmin');
    await expect(newest).toContainText('admin@saljportalen.se');
    await expectAccessible(page, 'Händelselogg');

    await page.getByLabel('Händelse', { exact: true }).selectOption({ label: 'Grupp skapad' });
    await expect(page).toHaveURL(/action=group\.create/);
    await expect(entry(page, testInfo, finalName).first()).toContainText('Grupp skapad');
    await expect(entry(page, testInfo, 'Grupp omdöpt')).toHaveCount(0);

    await page.getByLabel('Händelse', { exact: true }).selectOption({ label: 'Grupp omdöpt' });
    await expect(page).toHaveURL(/action=group\.rename/);
    const pager = page.getByRole('navigation', { name: 'Sidor i händelseloggen' });
    await expect(pager).toContainText(/Visar 1–25 av \d+/);
    await pager.getByRole('button', { name: 'Nästa' }).click();
    await expect(pager).toContainText(/Visar 26–/);
    await expect(page).toHaveURL(/offset=25/);
    await expectAccessible(page, 'Händelselogg sida 2');

    // The group's name leads to the group.
    await pager.getByRole('button', { name: 'Föregående' }).click();
    await entry(page, testInfo, finalName).first().getByRole('link', { name: finalName }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}$`));
  });

  test("'Händelselogg' names an erased account 'Borttagen användare', never its tombstone address (issue 33)", async ({
    page,
  }, testInfo) => {
    // A seller downloads their catalogue (an audited action), then deletes their account.
    const email = uniqueEmail('raderad.i.loggen', testInfo.project.name);
    const registered = await page.request.post('/api/auth/register-seller', {
      data: { full_name: 'Rut Raderad', email, password: 'ruts-losen-1', group_code: 'SCT482' },
    });
    expect(registered.ok(), await registered.text()).toBe(true);
    const seller = { authorization: `Bearer ${((await registered.json()) as { token: string }).token}` };
    expect((await page.request.get('/api/catalog/me.pdf', { headers: seller })).ok()).toBe(true);
    expect((await page.request.post('/api/account/delete', { headers: seller, data: { password: 'ruts-losen-1' } })).ok()).toBe(true);

    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin/audit?action=catalog.download');
    // Other tests download catalogues meanwhile: the erased seller's entry is the one of no name.
    await expect(entry(page, testInfo, 'Borttagen användare').first()).toContainText('Personlig katalog hämtad');
    await expect(page.getByRole('main')).not.toContainText('.invalid');
    await expect(page.getByRole('main')).not.toContainText('Rut Raderad');
    await expectAccessible(page, 'Händelselogg med ett raderat konto');
  });
});
