import fs from 'node:fs';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { demoPassword, TOKEN_STORAGE_KEY, csvRecords, expectAccessible, signInQuickly, uniqueEmail } from './support/fixtures';

const SUPERADMIN = 'admin@saljportalen.se';
const DEMO_GROUP = 'Klass 6B Björkskolan';

/** The web's own money format (spec §1: SEK, zero decimals, Swedish): what a card must show for a sum. */
const sek = (amount: number) =>
  new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount);
/** "4 858 kr" → 4858 */
const readWholeSek = (text: string) => Number(text.replace(/[^\d\u2212-]/g, '').replace('\u2212', '-'));
const toOre = (amount: number) => Math.round(amount * 100);

/** A name nobody else's test uses: the phone and desktop runs share one database. */
const uniqueName = (prefix: string, testInfo: TestInfo) => `${prefix} ${testInfo.project.name} ${Date.now().toString(36)}`;

interface ApiGroup {
  id: number;
  name: string;
  code: string;
  archived: boolean;
  sellers_count: number;
  total_sales: number;
  total_commission: number;
}
interface ApiSeller {
  user_id: number;
  full_name: string;
  group_name: string;
  orders_count: number;
  total_sales: number;
  total_commission: number;
  is_admin: boolean;
}

/** The API as the signed-in superadmin of this page, for the figures a page must agree with. */
async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

/** The toast showing now (spec §9: one at a time; the one it replaced may still be fading out). */
const toast = (page: Page) => page.locator('[data-sonner-toast][data-front="true"]:not([data-removed="true"])');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A picker (combobox) by its label. */
const picker = (scope: Page | Locator, label: string) => scope.getByRole('combobox', { name: label, exact: true });

/** Types into a picker and clicks the choice, as a person with a mouse or finger would. */
async function choose(scope: Page | Locator, label: string, option: string) {
  await picker(scope, label).fill(option);
  await scope.getByRole('listbox', { name: 'Grupper' }).getByRole('option', { name: option, exact: true }).click();
  await expect(picker(scope, label)).toHaveValue(option);
}

/** The figure on the card (or tile) with this label: the paragraph after the label's. */
const card = (page: Page, label: string): Locator =>
  page.locator('p', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }).locator('xpath=following-sibling::p[1]');

/** The table's first cells are these people's names, in this order. */
const expectNames = (page: Page, names: string[]) =>
  expect(page.locator('tbody tr td:first-child')).toHaveText(names.map((name) => new RegExp(`^${escapeRegExp(name)}`)));

/**
 * The group's CSV as Swedish Excel reads it: UTF-8 with BOM, `;` between fields, CRLF between
 * records, quotes around fields that need them, decimal comma in amounts.
 */
function parseSwedishCsv(buffer: Buffer): { header: string[]; rows: string[][] } {
  expect([...buffer.subarray(0, 3)], 'UTF-8 BOM').toEqual([0xef, 0xbb, 0xbf]);
  const records = csvRecords(buffer.subarray(3).toString('utf8'), '\r\n');
  const [header, ...rows] = records;
  expect(header, 'rubrikraden').toBeDefined();
  for (const row of rows) expect(row).toHaveLength(header!.length);
  return { header: header!, rows };
}

/** "-149,50" → -14950 öre; a decimal point instead of a comma fails. */
const decimalCommaToOre = (value: string) => {
  expect(value, 'belopp med decimalkomma').toMatch(/^-?\d+,\d{2}$/);
  return Number(value.replace(',', ''));
};

/** Exports the group on the open detail page and checks the file against its cards (issue 4). */
async function exportAndCheckSums(page: Page, testInfo: TestInfo, groupId: number) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportera CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`grupp-${groupId}.csv`);
  const filePath = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(filePath);
  const { header, rows } = parseSwedishCsv(fs.readFileSync(filePath));
  const amountColumn = header.indexOf('Belopp inkl. moms (kr)');
  const commissionColumn = header.indexOf('Provision (kr)');
  expect(amountColumn).toBeGreaterThanOrEqual(0);
  expect(commissionColumn).toBeGreaterThanOrEqual(0);
  const salesOre = rows.reduce((sum, row) => sum + decimalCommaToOre(row[amountColumn]!), 0);
  const commissionOre = rows.reduce((sum, row) => sum + decimalCommaToOre(row[commissionColumn]!), 0);

  const detail = await api<{ totals: { total_sales: number; total_commission: number } }>(page, `/api/admin/group/${groupId}`);
  expect(salesOre).toBe(toOre(detail.totals.total_sales));
  expect(commissionOre).toBe(toOre(detail.totals.total_commission));
  await expect(card(page, 'Total försäljning')).toContainText(sek(salesOre / 100));
  await expect(card(page, 'Total provision')).toContainText(sek(commissionOre / 100));
  return rows.length;
}

/** Reads one column of the table's body as whole kronor or counts. */
/** The whole-krona numbers of a column of the page's table (or of the table given). */
async function columnNumbers(scope: Page | Locator, column: number): Promise<number[]> {
  const cells = await scope
    .locator('tbody tr')
    .evaluateAll((rows, index) => rows.map((row) => row.querySelectorAll('td')[index]?.textContent ?? ''), column);
  return cells.map(readWholeSek);
}

const expectNonIncreasing = (values: number[]) => {
  expect(values.length).toBeGreaterThan(1);
  for (let index = 1; index < values.length; index++) expect(values[index]).toBeLessThanOrEqual(values[index - 1]!);
};

test.describe('superadmin area', () => {
  test('sign in, create a group with an administrator, add a seller, export, rename, archive and reactivate', async ({
    page,
  }, testInfo) => {
    // Sign in at /admin/login and land on the overview.
    await page.goto('/admin/login');
    await page.getByLabel('E-post').fill(SUPERADMIN);
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Översikt' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Aktiva grupper/ })).toBeVisible();
    await expectAccessible(page, '/admin');

    // Create: the validation of spec §5 first.
    await page.getByRole('link', { name: 'Skapa grupp' }).click();
    await expect(page).toHaveURL(/\/admin\/groups\/create$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Skapa grupp' })).toBeVisible();
    await expectAccessible(page, '/admin/groups/create');
    await page.getByLabel('Gruppnamn').fill('   ');
    await page.getByRole('button', { name: 'Skapa grupp' }).click();
    await expect(toast(page)).toContainText('Gruppnamn krävs');
    await expect(toast(page)).toContainText('Ange ett namn för gruppen');
    await expect(page.getByLabel('Gruppnamn')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, '/admin/groups/create utan namn');

    const groupName = uniqueName('E2E Klass', testInfo);
    const adminEmail = uniqueEmail('gruppadmin', testInfo.project.name);
    const adminName = `Anna Admin ${testInfo.project.name}`;
    await page.getByLabel('Gruppnamn').fill(groupName);
    await page.getByLabel('Lägg till administratör nu').check();
    await page.getByRole('button', { name: 'Skapa grupp' }).click();
    await expect(toast(page)).toContainText('Admin-uppgifter krävs');
    await expect(toast(page)).toContainText('Fyll i e-post, lösenord och namn för administratören');
    await expect(page.getByText('Minst 6 tecken.')).toBeVisible();
    await expectAccessible(page, '/admin/groups/create utan admin-uppgifter');

    const admin = page.getByRole('group', { name: 'Gruppens administratör' });
    await admin.getByLabel('E-post').fill(adminEmail);
    await admin.getByLabel('Lösenord', { exact: true }).fill('hemligt1');
    await admin.getByLabel('Fullständigt namn').fill(adminName);
    await page.getByRole('button', { name: 'Skapa grupp' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Grupp skapad' })).toBeVisible();
    await expect(toast(page)).toContainText('Grupp skapad');
    const code = (await page.getByTestId('group-code').textContent())!.trim();
    // Short and unambiguous to read aloud: no 0/O, 1/I/l.
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4,10}$/);
    await expect(page.getByText(adminEmail)).toBeVisible();
    await expectAccessible(page, 'grupp skapad');

    // The detail: header, code, status, the administrator with the Admin badge.
    await page.getByRole('link', { name: 'Öppna gruppen' }).click();
    await expect(page).toHaveURL(/\/admin\/groups\/\d+$/);
    const groupId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('heading', { level: 1, name: groupName })).toBeVisible();
    await expect(page.getByText(code, { exact: true })).toBeVisible();
    await expect(page.getByText('Aktiv', { exact: true })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(adminName) })).toContainText('Admin');
    await expect(card(page, 'Antal personer')).toHaveText('1');
    await expectAccessible(page, '/admin/groups/{id}');

    // Add a seller: e-mail required, a name for administrators, then a new account.
    await page.getByRole('link', { name: 'Lägg till användare' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}/add-user$`));
    await expect(page.getByText(groupName)).toBeVisible();
    await expectAccessible(page, '/admin/groups/{id}/add-user');
    await page.getByRole('button', { name: 'Lägg till användare' }).click();
    await expect(page.getByText('E-post krävs')).toBeVisible();
    const sellerEmail = uniqueEmail('ny.saljare', testInfo.project.name);
    const sellerName = `Sam Säljare ${testInfo.project.name}`;
    await page.getByLabel('E-post').fill(sellerEmail);
    await page.getByLabel('Roll').selectOption('admin');
    await page.getByRole('button', { name: 'Lägg till användare' }).click();
    await expect(page.getByText('Namn krävs för administratörer')).toBeVisible();
    await expectAccessible(page, '/admin/groups/{id}/add-user med fel');
    await page.getByLabel('Roll').selectOption('seller');
    await page.getByLabel('Fullständigt namn').fill(sellerName);
    await page.getByRole('button', { name: 'Lägg till användare' }).click();
    await expect(toast(page)).toContainText('Användare skapad och tillagd');
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}$`));

    // The same address again is an existing account: added, not created.
    await page.getByRole('link', { name: 'Lägg till användare' }).click();
    await page.getByLabel('E-post').fill(sellerEmail);
    await page.getByRole('button', { name: 'Lägg till användare' }).click();
    await expect(toast(page)).toContainText('Användare tillagd');
    await expect(toast(page)).not.toContainText('skapad');
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}$`));

    // Both people in the detail; only the administrator has the badge.
    await expect(card(page, 'Antal personer')).toHaveText('2');
    const sellerRow = page.getByRole('row', { name: new RegExp(sellerName) });
    await expect(sellerRow).toBeVisible();
    await expect(sellerRow.getByText('Admin', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(adminName) }).getByText('Admin', { exact: true })).toBeVisible();

    // A fresh group has no orders: the export has only its header, and both sums are 0.
    expect(await exportAndCheckSums(page, testInfo, groupId)).toBe(0);
    await expect(card(page, 'Total försäljning')).toContainText(sek(0));

    // The new seller's orders page: cards at zero and the empty text.
    await sellerRow.getByRole('link', { name: `Visa ordrar för ${sellerName}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: sellerName })).toBeVisible();
    await expect(page.getByText('Inga ordrar.')).toBeVisible();
    await expect(card(page, 'Försäljning')).toContainText(sek(0));
    await expectAccessible(page, 'säljarens ordrar utan ordrar');
    await page.getByRole('link', { name: 'Tillbaka till gruppen' }).click();

    // Rename: an unchanged name is ignored, a new one is trimmed and saved.
    await page.getByRole('button', { name: 'Byt namn' }).click();
    const dialog = page.getByRole('dialog', { name: 'Byt namn på gruppen' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nytt gruppnamn')).toHaveValue(groupName);
    await expectAccessible(page, 'dialogen byt namn');
    await dialog.getByRole('button', { name: 'Spara namn' }).click();
    await expect(dialog).toBeHidden();
    expect((await api<{ group: { name: string } }>(page, `/api/admin/groups/${groupId}`)).group.name).toBe(groupName);

    const newName = `${groupName} omdöpt`;
    await page.getByRole('button', { name: 'Byt namn' }).click();
    await dialog.getByLabel('Nytt gruppnamn').fill(`   ${newName}  `);
    await dialog.getByRole('button', { name: 'Spara namn' }).click();
    await expect(toast(page)).toContainText('Gruppnamn uppdaterat');
    await expect(page.getByRole('heading', { level: 1, name: newName, exact: true })).toBeVisible();
    expect((await api<{ group: { name: string } }>(page, `/api/admin/groups/${groupId}`)).group.name).toBe(newName);

    // Archive (it asks first, issue 19), then find the group under the archived filter.
    await page.getByRole('button', { name: 'Arkivera' }).click();
    const archiveDialog = page.getByRole('dialog', { name: `Arkivera ${newName}?` });
    await expect(archiveDialog).toContainText(`${newName} arkiveras: eleverna kan inte längre sälja via sina länkar.`);
    await archiveDialog.getByRole('button', { name: 'Arkivera' }).click();
    await expect(toast(page)).toContainText('Grupp arkiverad');
    await expect(page.getByText('Arkiverad', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Återaktivera' })).toBeVisible();
    await expectAccessible(page, 'arkiverad grupp');

    await page.getByRole('link', { name: 'Översikt' }).click();
    await page.getByRole('link', { name: /Arkiverade grupper/ }).click();
    await expect(page).toHaveURL(/\/admin\/groups\?status=archived$/);
    await expect(page.getByLabel('Status')).toHaveValue('archived');
    await page.getByLabel('Sök grupp').fill(newName);
    await page.getByRole('button', { name: 'Sök', exact: true }).click();
    const listed = page.getByRole('row', { name: new RegExp(newName) });
    await expect(listed).toContainText('Arkiverad');
    await expect(listed).toContainText(code);
    await expectAccessible(page, '/admin/groups?status=archived');
    // Not among the active ones.
    await page.getByLabel('Status').selectOption('active');
    await expect(page.getByText('Inga grupper')).toBeVisible();
    await expectAccessible(page, '/admin/groups utan träffar');

    // Reactivate from the detail.
    await page.getByLabel('Status').selectOption('archived');
    await listed.getByRole('link', { name: newName }).click();
    await page.getByRole('button', { name: 'Återaktivera' }).click();
    await expect(toast(page)).toContainText('Grupp återaktiverad');
    await expect(page.getByText('Aktiv', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Arkivera' })).toBeVisible();
    expect((await api<{ group: { archived: boolean } }>(page, `/api/admin/groups/${groupId}`)).group.archived).toBe(false);
  });

  test("the demo group's export adds up to its cards, and a seller's orders page shows the orders", async ({ page }, testInfo) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin/groups');
    await page.getByLabel('Sök grupp').fill('Björkskolan');
    await page.getByRole('button', { name: 'Sök', exact: true }).click();
    await page.getByRole('link', { name: DEMO_GROUP }).click();
    await expect(page.getByRole('heading', { level: 1, name: DEMO_GROUP })).toBeVisible();
    const groupId = Number(new URL(page.url()).pathname.split('/').pop());

    // The cards are the API's totals; the people are sorted by sales, highest first.
    const detail = await api<{ totals: { orders_count: number; sellers_count: number }; sellers: ApiSeller[] }>(
      page,
      `/api/admin/group/${groupId}`,
    );
    await expect(card(page, 'Ordrar')).toHaveText(String(detail.totals.orders_count));
    await expect(card(page, 'Antal personer')).toHaveText(String(detail.totals.sellers_count));
    // The people's table, not the sales chart's table beside it.
    const people = page.getByRole('table', { name: 'Personer i gruppen, sorterade efter försäljning' });
    await expect(people.locator('tbody tr')).toHaveCount(detail.sellers.length);
    // A class fits on one page: no pager.
    await expect(page.getByRole('navigation', { name: 'Sidor av personer i gruppen' })).toHaveCount(0);
    expectNonIncreasing(await columnNumbers(people, 2));
    const teacher = detail.sellers.find((seller) => seller.is_admin)!;
    await expect(page.getByRole('row', { name: new RegExp(teacher.full_name) }).getByText('Admin', { exact: true })).toBeVisible();
    await expectAccessible(page, 'demogruppens detalj');
    // Kept with the test's results, not in docs/: a run's data (people added by other tests) is no picture for the README.
    await page.screenshot({ path: testInfo.outputPath('admin-group-desktop.png'), fullPage: true });

    const lines = await exportAndCheckSums(page, testInfo, groupId);
    expect(lines).toBeGreaterThan(0);

    // One seller's orders: cards from the summary, rows as the API lists them.
    const seller = detail.sellers.find((row) => row.orders_count > 0)!;
    await page.getByRole('link', { name: `Visa ordrar för ${seller.full_name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}/seller/${seller.user_id}$`));
    await expect(page.getByRole('heading', { level: 1, name: seller.full_name })).toBeVisible();
    const orders = await api<{
      seller: { orders_count: number; total_sales: number; total_commission: number };
      items: { order_name: string | null; shopify_order_id: string }[];
    }>(page, `/api/admin/seller/${seller.user_id}/orders?group_id=${groupId}`);
    await expect(card(page, 'Ordrar')).toHaveText(String(orders.seller.orders_count));
    await expect(card(page, 'Försäljning')).toContainText(sek(orders.seller.total_sales));
    await expect(card(page, 'Provision')).toContainText(sek(orders.seller.total_commission));
    await expect(page.locator('tbody tr')).toHaveCount(orders.items.length);
    await expect(page.locator('tbody tr').first()).toContainText(orders.items[0]!.order_name ?? orders.items[0]!.shopify_order_id);
    await expectAccessible(page, 'säljarens ordrar');

    // A seller in the group's table agrees with the seller's own page.
    expect(orders.seller.total_sales).toBe(seller.total_sales);
    await page.getByRole('link', { name: 'Tillbaka till gruppen' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${groupId}$`));
  });

  test("a large group's people come a page at a time, the cards over the whole group", async ({ page }, testInfo) => {
    const token = await signInQuickly(page, SUPERADMIN);
    const post = async (path: string, data: unknown) => {
      const response = await page.request.post(path, { headers: { authorization: `Bearer ${token}` }, data });
      expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
      return (await response.json()) as { group: { id: number } };
    };
    const { group } = await post('/api/admin/groups/create', { group_name: uniqueName('E2E Stor klubb', testInfo) });
    const people = 51;
    for (let index = 1; index <= people; index++) {
      const number = String(index).padStart(2, '0');
      await post(`/api/admin/groups/${group.id}/add-user`, {
        email: uniqueEmail(`medlem${number}`, testInfo.project.name),
        full_name: `Medlem ${number}`,
        role: 'seller',
      });
    }

    await page.goto(`/admin/groups/${group.id}`);
    const pager = page.getByRole('navigation', { name: 'Sidor av personer i gruppen' });
    await expect(pager).toContainText('Visar 1–50 av 51');
    await expect(page.locator('tbody tr')).toHaveCount(50);
    await expect(card(page, 'Antal personer')).toHaveText('51');
    // Nobody has sold anything: by name.
    await expect(page.locator('tbody tr').first()).toContainText('Medlem 01');
    await expectAccessible(page, 'stor grupp, sida 1');

    await pager.getByRole('button', { name: 'Nästa' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${group.id}\\?offset=50$`));
    await expect(pager).toContainText('Visar 51–51 av 51');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(page.locator('tbody tr')).toContainText('Medlem 51');
    await expect(card(page, 'Antal personer')).toHaveText('51');
    await expect(pager.getByRole('button', { name: 'Nästa' })).toBeDisabled();

    // The page is in the address: a reload stays on it, and back goes to the first.
    await page.reload();
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await page.goBack();
    await expect(page.locator('tbody tr')).toHaveCount(50);
    await pager.getByRole('button', { name: 'Nästa' }).click();
    await pager.getByRole('button', { name: 'Föregående' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${group.id}$`));
    await expect(page.locator('tbody tr')).toHaveCount(50);
  });

  test('the sellers page sorts and filters', async ({ page }, testInfo) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin/sellers');
    await expect(page.getByRole('heading', { level: 1, name: 'Säljare' })).toBeVisible();
    await expect(page.locator('tbody tr').first()).not.toHaveAttribute('data-testid', 'skeleton-row');
    await expectAccessible(page, '/admin/sellers');

    // Columns: name 0, group 1, orders 2, sales 3, commission 4. Each sort is the API's order, highest first.
    const bySales = await api<{ items: ApiSeller[] }>(page, '/api/admin/sellers?sort=total_sales');
    await expectNames(
      page,
      bySales.items.map((row) => row.full_name),
    );
    expectNonIncreasing(await columnNumbers(page, 3));
    await page.getByLabel('Sortera').selectOption('orders');
    await expect(page).toHaveURL(/sort=orders/);
    const byOrders = await api<{ items: ApiSeller[] }>(page, '/api/admin/sellers?sort=orders_count');
    await expectNames(
      page,
      byOrders.items.map((row) => row.full_name),
    );
    expectNonIncreasing(await columnNumbers(page, 2));
    await page.getByLabel('Sortera').selectOption('commission');
    await expect(page).toHaveURL(/sort=commission/);
    const byCommission = await api<{ items: ApiSeller[] }>(page, '/api/admin/sellers?sort=total_commission');
    await expectNames(
      page,
      byCommission.items.map((row) => row.full_name),
    );
    expectNonIncreasing(await columnNumbers(page, 4));

    // Only archived groups: exactly the API's rows, each marked archived.
    await choose(page, 'Grupp', 'Endast arkiverade grupper');
    await expect(page).toHaveURL(/group=archived/);
    const archived = await api<{ items: ApiSeller[] }>(page, '/api/admin/sellers?status=archived&sort=total_commission');
    await expectNames(
      page,
      archived.items.map((row) => row.full_name),
    );
    for (const row of await page.locator('tbody tr').all()) await expect(row).toContainText('Arkiverad');

    // The picker has every group, in Swedish order (Å, Ä, Ö after Z), after the three filters.
    const options = await api<{ items: { id: number; name: string; archived: boolean }[] }>(page, '/api/admin/groups/options');
    const groupList = await api<{ total: number }>(page, '/api/admin/groups?limit=1');
    expect(options.items).toHaveLength(groupList.total);
    const swedish = new Intl.Collator('sv', { numeric: true });
    for (let index = 1; index < options.items.length; index++)
      expect(swedish.compare(options.items[index - 1]!.name, options.items[index]!.name)).toBeLessThanOrEqual(0);
    const groupPicker = picker(page, 'Grupp');
    await groupPicker.focus();
    await groupPicker.press('ArrowDown');
    await expect(page.getByRole('listbox', { name: 'Grupper' }).getByRole('option')).toHaveText(
      [
        'Alla grupper',
        'Endast aktiva grupper',
        'Endast arkiverade grupper',
        ...options.items.map((group) => (group.archived ? `${group.name} (Arkiverad)` : group.name)),
      ].slice(0, 100),
    );
    await expectAccessible(page, '/admin/sellers med gruppväljaren öppen');
    await groupPicker.press('Escape');
    await expect(page.getByRole('listbox', { name: 'Grupper' })).toBeHidden();
    await expect(groupPicker).toHaveValue('Endast arkiverade grupper');

    // One group, found by typing part of its name and chosen with the keyboard: its people only.
    await groupPicker.fill('björkskol');
    await expect(page.getByRole('listbox', { name: 'Grupper' }).getByRole('option')).toHaveText([DEMO_GROUP]);
    await groupPicker.press('Enter');
    await expect(groupPicker).toHaveValue(DEMO_GROUP);
    const demo = options.items.find((group) => group.name === DEMO_GROUP)!;
    const groups = await api<{ items: ApiGroup[] }>(page, `/api/admin/groups?q=${encodeURIComponent(DEMO_GROUP)}`);
    expect(groups.items.find((group) => group.id === demo.id)).toBeDefined();
    await expect(page).toHaveURL(new RegExp(`group=${demo.id}`));
    const inDemo = await api<{ items: ApiSeller[] }>(page, `/api/admin/sellers?group_id=${demo.id}&sort=total_commission`);
    expect(inDemo.items).toHaveLength(groups.items.find((group) => group.id === demo.id)!.sellers_count);
    await expectNames(
      page,
      inDemo.items.map((row) => row.full_name),
    );
    for (const row of await page.locator('tbody tr').all()) await expect(row).toContainText(DEMO_GROUP);

    // A period narrows the figures to the orders placed in it (applied with 'Hämta').
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Från').fill(monthAgo);
    await page.getByLabel('Till').fill(today);
    await page.getByRole('button', { name: 'Hämta' }).click();
    await expect(page).toHaveURL(new RegExp(`from=${monthAgo}`));
    const period = await api<{ items: ApiSeller[] }>(
      page,
      `/api/admin/sellers?group_id=${demo.id}&from=${monthAgo}&to=${today}&sort=total_commission`,
    );
    await expect(page.locator('tbody tr td:nth-child(5)')).toHaveText(period.items.map((row) => sek(row.total_commission)));
    await expect(page.locator('tbody tr td:nth-child(3)')).toHaveText(period.items.map((row) => String(row.orders_count)));

    // From after to is refused before anything is fetched.
    await page.getByLabel('Från').fill(today);
    await page.getByLabel('Till').fill(monthAgo);
    await page.getByRole('button', { name: 'Hämta' }).click();
    await expect(page.getByText('Från-datum kan inte vara efter Till-datum.')).toBeVisible();
    await expectAccessible(page, '/admin/sellers med fel datum');

    // A group without people: the empty text.
    const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
    const emptyName = uniqueName('E2E Tom grupp', testInfo);
    const created = await page.request.post('/api/admin/groups/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { group_name: emptyName },
    });
    expect(created.ok()).toBe(true);
    await page.goto('/admin/sellers');
    await choose(page, 'Grupp', emptyName);
    await expect(page.getByText('Inga personer hittades.')).toBeVisible();
    await expectAccessible(page, '/admin/sellers utan träffar');
  });

  test("the overview's totals are the sums over the groups list", async ({ page }) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin');
    await expect(page.getByRole('link', { name: /Aktiva grupper/ })).toBeVisible();
    const { items, total } = await api<{ items: ApiGroup[]; total: number }>(page, '/api/admin/groups?limit=500');
    expect(items).toHaveLength(total);
    const salesOre = items.reduce((sum, group) => sum + toOre(group.total_sales), 0);
    const commissionOre = items.reduce((sum, group) => sum + toOre(group.total_commission), 0);
    const active = items.filter((group) => !group.archived).length;
    await expect(page.getByRole('link', { name: /Aktiva grupper/ })).toContainText(String(active));
    await expect(page.getByRole('link', { name: /Arkiverade grupper/ })).toContainText(String(total - active));
    await expect(page.getByRole('link', { name: /Säljare \(inkl\. admins\)/ })).toContainText(
      String(items.reduce((sum, group) => sum + group.sellers_count, 0)),
    );
    await expect(card(page, 'Total försäljning')).toContainText(sek(salesOre / 100));
    await expect(card(page, 'Total provision')).toContainText(sek(commissionOre / 100));
    const overview = await api<{ total_sales: number; total_commission: number }>(page, '/api/admin/overview');
    expect(toOre(overview.total_sales)).toBe(salesOre);
    expect(toOre(overview.total_commission)).toBe(commissionOre);

    // The archived tile opens the list filtered on archived groups.
    await page.getByRole('link', { name: /Arkiverade grupper/ }).click();
    await expect(page).toHaveURL(/\/admin\/groups\?status=archived$/);
    await expect(page.locator('tbody tr')).toHaveCount(total - active);
  });

  test('a missing group, bad seller links, unknown admin paths, legacy paths and a seller who opens /admin', async ({ page }) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin/groups/987654321');
    await expect(page.getByRole('heading', { level: 1, name: 'Grupp hittades inte' })).toBeVisible();
    await expectAccessible(page, 'saknad grupp');

    // spec §2 'other': an unknown admin path is the 404 page with a link home, not the overview.
    for (const unknown of ['/admin/finns-inte', '/admin/groups/12/finns-inte', '/admin/orders']) {
      await page.goto(unknown);
      await expect(page.getByRole('heading', { level: 1, name: 'Sidan du letar efter finns inte' })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${escapeRegExp(unknown)}$`));
    }
    await expectAccessible(page, '/admin/okänd sida');
    await page.getByRole('link', { name: 'Till startsidan' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // spec §2 seller orders: a group id that is not a number, or no user id, goes to the group list.
    const demo = (await api<{ items: ApiGroup[] }>(page, `/api/admin/groups?q=${encodeURIComponent(DEMO_GROUP)}`)).items[0]!;
    for (const bad of ['/admin/groups/abc/seller/6', `/admin/groups/${demo.id}/seller`, `/admin/groups/${demo.id}/seller/`]) {
      await page.goto(bad);
      await expect(page).toHaveURL(/\/admin\/groups$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Grupper' })).toBeVisible();
    }

    // The legacy paths lead to the same pages, signed in as the superadmin.
    await page.goto('/admin/group/987654321');
    await expect(page).toHaveURL(/\/admin\/groups\/987654321$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Grupp hittades inte' })).toBeVisible();
    const seller = (await api<{ sellers: ApiSeller[] }>(page, `/api/admin/group/${demo.id}`)).sellers[0]!;
    await page.goto(`/admin/group/${demo.id}/seller/${seller.user_id}`);
    await expect(page).toHaveURL(new RegExp(`/admin/groups/${demo.id}/seller/${seller.user_id}$`));
    await expect(page.getByRole('heading', { level: 1, name: seller.full_name })).toBeVisible();
    await expect(card(page, 'Försäljning')).toContainText(sek(seller.total_sales));

    await signInQuickly(page, 'noah@demo.se');
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('signing out in another tab ends the admin pages here: Saknar auth-token, then the login page', async ({ page, context }) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin/sellers');
    await expect(page.getByRole('heading', { level: 1, name: 'Säljare' })).toBeVisible();

    const other = await context.newPage();
    await other.goto('/admin');
    await expect(other.getByRole('heading', { level: 1, name: 'Översikt' })).toBeVisible();
    await other.getByRole('button', { name: 'Logga ut' }).click();
    await expect(other).toHaveURL(/\/login$/);
    await other.close();

    // spec §4, §8: the page here finds no token in storage (and no session to renew it from).
    await expect(toast(page)).toContainText('Saknar auth-token');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Säljare' })).toHaveCount(0);
    await expectAccessible(page, '/login efter saknad token');
  });

  test('an admin page that finds no token when it opens says Saknar auth-token and goes to the login page', async ({ page, context }) => {
    await signInQuickly(page, SUPERADMIN);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Översikt' })).toBeVisible();
    // The overview has all it asked for (its chart comes last), so no call of its own is still on its way.
    await expect(page.getByRole('heading', { name: 'Försäljning per vecka' })).toBeVisible();
    // The session is gone, its token and its refresh cookie both (another program cleared them).
    await context.clearCookies();
    const callsWithoutToken: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin/') && !request.headers()['authorization'])
        callsWithoutToken.push(request.url());
    });
    // Token gone and 'Grupper' chosen in one step: any render of the admin area in between (a
    // figure refetched) would find the token missing first and leave before the click.
    await page.evaluate((key) => {
      localStorage.removeItem(key);
      document.querySelector<HTMLAnchorElement>('nav[aria-label="Adminmeny"] a[href="/admin/groups"]')!.click();
    }, TOKEN_STORAGE_KEY);
    await expect(toast(page)).toContainText('Saknar auth-token');
    await expect(page).toHaveURL(/\/login$/);
    // The groups page never asked the server for anything without a token.
    expect(callsWithoutToken).toEqual([]);
  });
});
