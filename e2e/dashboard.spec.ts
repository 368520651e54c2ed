import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import type {
  TAccountGroupsResponse,
  TAdminGroupDetailResponse,
  TAdminSellerOrdersResponse,
  TGroupTotalsResponse,
  TGroupMembersResponse,
  TFullLeaderboard,
  TMeSummaryResponse,
} from '@saljportalen/contract';
import {
  TOKEN_STORAGE_KEY,
  apiToken,
  csvRecords,
  expectAccessible,
  forgedToken,
  oversizeRequestsTo,
  removeOversizedCookies,
  signInQuickly,
  storeTokenOutsideApp,
  toastRegion,
  toastsSettled,
  tokenClaims,
} from './support/fixtures';

/**
 * The seller's dashboard against the real server and the demo data. The dashboard and the
 * leaderboard both read the figure rollups; the expected figures here are summed from the orders
 * themselves instead (the superadmin's per-seller order lists and the group's CSV export, which
 * read the orders table), and written the way sv-SE writes whole kronor.
 */

async function apiGet<T>(request: Page | APIRequestContext, token: string, path: string): Promise<T> {
  const client = 'request' in request ? request.request : request;
  const response = await client.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

async function apiPost(page: Page, token: string, path: string, data: unknown): Promise<void> {
  const response = await page.request.post(path, { headers: { authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
}

const dashboardData = (page: Page, token: string) =>
  Promise.all([
    apiGet<TMeSummaryResponse>(page, token, '/api/me/summary'),
    apiGet<TGroupTotalsResponse>(page, token, '/api/group/totals'),
    apiGet<TFullLeaderboard>(page, token, '/api/group/leaderboard-mine'),
  ]);

/** An API amount in kronor (at most two decimals) as whole öre, so sums are exact. */
const ore = (sek: number) => Math.round(sek * 100);
/** sv-SE's own whole numbers (Intl, not the app's formatter): no-break space between thousands, U+2212 for minus. */
const wholeNumber = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
/** Whole kronor as the dashboard writes them: "1 235 kr" with no-break spaces. */
const kronor = (amountOre: number) => `${wholeNumber.format(amountOre / 100)}\u00a0kr`;
const formatSek = (sek: number) => kronor(ore(sek));
const formatCount = (count: number) => wholeNumber.format(count);

interface OrderSums {
  salesOre: number;
  commissionOre: number;
  /** Orders that count on the dashboard: all but cancelled ones. */
  counted: number;
  /** Every order, cancelled ones too. */
  orders: number;
}
const noOrders = (): OrderSums => ({ salesOre: 0, commissionOre: 0, counted: 0, orders: 0 });

/** Every page of a list the admin API pages with limit/offset. */
async function allPages<T extends { total: number }>(read: (offset: number) => Promise<T>, items: (page: T) => unknown[]): Promise<T[]> {
  const pages: T[] = [];
  for (let offset = 0; ;) {
    const page = await read(offset);
    pages.push(page);
    offset += items(page).length;
    if (items(page).length === 0 || offset >= page.total) return pages;
  }
}

/** One member's orders in the group, summed here from the order list (orders table, not rollups). */
async function memberOrderSums(request: APIRequestContext, adminToken: string, userId: number, groupId: number): Promise<OrderSums> {
  const pages = await allPages(
    (offset) =>
      apiGet<TAdminSellerOrdersResponse>(
        request,
        adminToken,
        `/api/admin/seller/${userId}/orders?group_id=${groupId}&limit=500&offset=${offset}`,
      ),
    (page) => page.items,
  );
  const sums = noOrders();
  for (const order of pages.flatMap((page) => page.items)) {
    expect(order.group_id).toBe(groupId);
    sums.salesOre += ore(order.subtotal_incl_vat);
    sums.commissionOre += ore(order.commission_total);
    sums.orders += 1;
    if (order.state !== 'cancelled') sums.counted += 1;
  }
  return sums;
}

/** The group's members (user ids), from the superadmin's group detail. */
async function groupMembers(request: APIRequestContext, adminToken: string, groupId: number): Promise<number[]> {
  const pages = await allPages(
    async (offset) => {
      const detail = await apiGet<TAdminGroupDetailResponse>(request, adminToken, `/api/admin/group/${groupId}?limit=500&offset=${offset}`);
      return { ...detail, total: detail.sellers_page.total };
    },
    (page) => page.sellers,
  );
  return pages.flatMap((page) => page.sellers.map((seller) => seller.user_id));
}

/** The group's order lines from the CSV export (by the orders' group, members or not): sums and distinct orders. */
async function exportSums(request: APIRequestContext, adminToken: string, groupId: number) {
  const response = await request.get(`/api/admin/group/${groupId}/export`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(response.ok()).toBe(true);
  const [header, ...lines] = csvRecords((await response.text()).replace(/^\uFEFF/, ''));
  const column = (name: string) => header!.indexOf(name);
  const amount = column('Belopp inkl. moms (kr)');
  const commission = column('Provision (kr)');
  const order = column('Order');
  expect(Math.min(amount, commission, order)).toBeGreaterThanOrEqual(0);
  const decimalComma = (cell: string) => ore(Number(cell.replace(',', '.')));
  return {
    salesOre: lines.reduce((total, line) => total + decimalComma(line[amount]!), 0),
    commissionOre: lines.reduce((total, line) => total + decimalComma(line[commission]!), 0),
    orders: new Set(lines.map((line) => line[order])).size,
  };
}

/** The value beside a figure's label on the dashboard (the figures are a dl of dt/dd). */
const stat = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

const leaderboardRows = (page: Page) => page.getByRole('table', { name: 'Topplista' }).locator('tbody tr');

const HIDDEN_MESSAGE = 'Topplistan är för närvarande dold av administratören.';

/** The header's navigation, opening the phone menu first where the header folds into one. */
async function headerNav(page: Page) {
  const menuButton = page.getByRole('button', { name: 'Öppna menyn' });
  if (await menuButton.isVisible()) {
    await menuButton.click();
    return page.getByRole('navigation', { name: 'Mobilmeny' });
  }
  return page.getByRole('navigation', { name: 'Huvudmeny' });
}

/** A request held back until `release()`, then sent to the real server unchanged. */
async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test.describe('dashboard', () => {
  test('a group admin sees personal and group figures that are the sums of the group’s orders', async ({ page, request }) => {
    const adminToken = await apiToken(request, 'admin@saljportalen.se');
    const token = await signInQuickly(page, 'larare@bjorkskolan.se');
    const [summary, , board] = await dashboardData(page, token);
    const groupId = summary.group_hint!.id;

    // Summed from the orders: every member's order list, and the group's export of order lines.
    const members = await groupMembers(request, adminToken, groupId);
    expect(members).toContain(summary.user.id);
    const byMember = new Map<number, OrderSums>();
    for (const userId of members) byMember.set(userId, await memberOrderSums(request, adminToken, userId, groupId));
    const group = [...byMember.values()].reduce(
      (total, sums) => ({
        salesOre: total.salesOre + sums.salesOre,
        commissionOre: total.commissionOre + sums.commissionOre,
        counted: total.counted + sums.counted,
        orders: total.orders + sums.orders,
      }),
      noOrders(),
    );
    // The export reads the orders by their group, members or not: the same money and the same
    // orders, so no order of the group is missing from the members' lists.
    expect(await exportSums(request, adminToken, groupId)).toEqual({
      salesOre: group.salesOre,
      commissionOre: group.commissionOre,
      orders: group.orders,
    });
    const mine = byMember.get(summary.user.id)!;
    expect(mine.salesOre).toBeGreaterThan(0);
    expect(group.salesOre).toBeGreaterThan(mine.salesOre);
    // The formatting the page must match, character for character.
    expect(kronor(123_456_78)).toBe('123\u00a0457\u00a0kr');

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Karin!' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByText(summary.group_hint!.name, { exact: true })).toBeVisible();
    await expect(main.getByText(summary.group_hint!.code, { exact: true })).toBeVisible();

    await expect(stat(page, 'Din försäljning')).toHaveText(kronor(mine.salesOre));
    await expect(stat(page, 'Din intjäning')).toHaveText(kronor(mine.commissionOre));
    await expect(stat(page, 'Dina ordrar')).toHaveText(formatCount(mine.counted));
    await expect(stat(page, 'Totalt sålt')).toHaveText(kronor(group.salesOre));
    await expect(stat(page, 'Total intjäning')).toHaveText(kronor(group.commissionOre));
    await expect(stat(page, 'Ordrar')).toHaveText(formatCount(group.counted));

    // Every member with a rank number, highest sales first, each with the sum of their own orders;
    // left out only a pupil with protected personal data, or one awaiting a guardian (who has no
    // orders: they wait unattributed), whom other tests on this worker's database may have added.
    const ranked = board.items.map((item) => item.user_id);
    expect(members).toEqual(expect.arrayContaining(ranked));
    const classList = await apiGet<TGroupMembersResponse>(page, token, `/api/group/members?group_id=${groupId}`);
    const protectedPupils = new Set(classList.items.filter((member) => member.protected_identity).map((member) => member.user_id));
    for (const userId of members.filter((member) => !ranked.includes(member)))
      expect(protectedPupils.has(userId) || byMember.get(userId)!.orders === 0, `medlem ${userId} saknas i topplistan`).toBe(true);
    expect(ranked.length).toBeGreaterThan(members.length / 2);
    const sortedSales = board.items.map((item) => item.sales);
    expect(sortedSales).toEqual([...sortedSales].sort((a, b) => b - a));
    const rows = leaderboardRows(page);
    await expect(rows).toHaveCount(board.items.length);
    for (const [index, item] of board.items.entries()) {
      await expect(rows.nth(index).locator('td').first()).toHaveText(String(index + 1));
      await expect(rows.nth(index)).toContainText(item.seller_name);
      await expect(rows.nth(index)).toContainText(kronor(byMember.get(item.user_id)!.salesOre));
    }
    const myName = board.items.find((item) => item.user_id === summary.user.id)!.seller_name;
    await expect(rows.filter({ has: page.getByText('Du', { exact: true }) })).toContainText(myName);

    await expect(page.getByRole('switch', { name: 'Visa för säljarna' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Superadmin' })).toHaveCount(0);
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard som gruppadmin');
  });

  test('the leaderboard hides for sellers while the group admin turns it off, and comes back', async ({ page }) => {
    const adminToken = await signInQuickly(page, 'larare@bjorkskolan.se');
    const groupId = (await apiGet<TMeSummaryResponse>(page, adminToken, '/api/me/summary')).group_hint!.id;
    try {
      await page.goto('/dashboard');
      const visibility = page.getByRole('switch', { name: 'Visa för säljarna' });
      await expect(visibility).toHaveAttribute('aria-checked', 'true');
      await visibility.click();
      await expect(page.getByText('Inställning uppdaterad')).toBeVisible();
      await expect(visibility).toHaveAttribute('aria-checked', 'false');
      // The admin still sees the list, with a note that the sellers do not.
      await expect(page.getByText('Topplistan är dold för säljarna.')).toBeVisible();
      await expect(leaderboardRows(page).first()).toBeVisible();
      await toastsSettled(page);
      await expectAccessible(page, 'topplistan dold, som gruppadmin');

      // The seller gets neither the rows from the server nor the table on the page.
      const sellerToken = await signInQuickly(page, 'noah@demo.se');
      const hidden = await apiGet<TFullLeaderboard>(page, sellerToken, '/api/group/leaderboard-mine');
      expect(hidden).toEqual({ mode: 'full', group: { leaderboard_visible: false }, items: [] });
      await page.goto('/dashboard');
      await expect(page.getByText(HIDDEN_MESSAGE)).toBeVisible();
      await expect(page.getByRole('table', { name: 'Topplista' })).toHaveCount(0);
      await expect(page.getByRole('switch')).toHaveCount(0);
      await toastsSettled(page);
      await expectAccessible(page, 'topplistan dold, som säljare');

      await signInQuickly(page, 'larare@bjorkskolan.se');
      await page.goto('/dashboard');
      await page.getByRole('switch', { name: 'Visa för säljarna' }).click();
      await expect(page.getByText('Inställning uppdaterad')).toBeVisible();
      await expect(page.getByRole('switch', { name: 'Visa för säljarna' })).toHaveAttribute('aria-checked', 'true');

      const shownToken = await signInQuickly(page, 'noah@demo.se');
      const shown = await apiGet<TFullLeaderboard>(page, shownToken, '/api/group/leaderboard-mine');
      await page.goto('/dashboard');
      await expect(leaderboardRows(page)).toHaveCount(shown.items.length);
      await expect(page.getByText(HIDDEN_MESSAGE)).toHaveCount(0);
    } finally {
      // Leave the demo group as it was for the other tests, whatever failed above.
      await apiPost(page, adminToken, '/api/group/settings', { group_id: groupId, show_leaderboard: true });
    }
  });

  test('a seller in two groups switches group and sees the other group’s figures', async ({ page }) => {
    const token = await signInQuickly(page, 'elsa@demo.se');
    const { groups } = await apiGet<TAccountGroupsResponse>(page, token, '/api/account/groups');
    expect(groups.length).toBeGreaterThanOrEqual(2);
    const original = groups.find((group) => group.is_active)!;
    const target = groups.find((group) => !group.is_active)!;
    try {
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'Hej, Elsa!' })).toBeVisible();
      const before = await apiGet<TGroupTotalsResponse>(page, token, '/api/group/totals');
      await expect(stat(page, 'Totalt sålt')).toHaveText(formatSek(before.totals.total_sales));

      const nav = await headerNav(page);
      await nav.getByRole('button', { name: `Byt grupp, aktiv grupp: ${original.group_name}` }).click();
      const options = nav.locator('[data-group-option]');
      await expect(options).toHaveCount(groups.length);
      await expect(options.filter({ hasText: original.group_name })).toContainText('Aktiv');
      await expect(options.filter({ hasText: target.group_name })).toContainText('Säljare');
      await expect(options.filter({ hasText: target.group_name })).not.toContainText('Aktiv');
      await toastsSettled(page);
      await expectAccessible(page, 'gruppväljaren öppen');

      // Choosing the other group reloads the page on it.
      await Promise.all([page.waitForEvent('load'), options.filter({ hasText: target.group_name }).click()]);
      await expect(page.getByText('Grupp ändrad')).toBeVisible();
      const [summary, totals, board] = await dashboardData(page, token);
      expect(summary.group_hint!.id).toBe(target.group_id);
      const mine = board.items.find((item) => item.user_id === summary.user.id)!;
      expect(ore(totals.totals.total_sales)).toBe(board.items.reduce((total, item) => total + ore(item.sales), 0));
      await expect(page.getByRole('main').getByText(`Gruppkod: ${target.group_code}`)).toBeVisible();
      await expect(stat(page, 'Din försäljning')).toHaveText(formatSek(mine.sales));
      await expect(stat(page, 'Totalt sålt')).toHaveText(formatSek(totals.totals.total_sales));
      await expect(stat(page, 'Ordrar')).toHaveText(formatCount(totals.totals.orders_count));
      expect(totals.totals.total_sales).not.toBe(before.totals.total_sales);
      await expect(leaderboardRows(page)).toHaveCount(board.items.length);

      // Back again with the keyboard alone: open, arrow to the group, Enter.
      const backNav = await headerNav(page);
      const trigger = backNav.getByRole('button', { name: `Byt grupp, aktiv grupp: ${target.group_name}` });
      await trigger.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Home');
      for (let step = 0; step < groups.indexOf(original); step++) await page.keyboard.press('ArrowDown');
      await expect(backNav.locator('[data-group-option]').filter({ hasText: original.group_name })).toBeFocused();
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      await expect(page.getByRole('main').getByText(`Gruppkod: ${original.group_code}`)).toBeVisible();
    } finally {
      await apiPost(page, token, '/api/account/switch-group', { group_id: original.group_id });
    }
  });

  test('the personal link copies with a two-second confirmation and shares by SMS and social links', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const token = await signInQuickly(page, 'noah@demo.se');
    const { personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    const link = personal.personal_link!;
    await page.goto('/dashboard');
    await expect(page.getByLabel('Länk')).toHaveValue(link);

    await page.getByRole('button', { name: 'Kopiera länk' }).click();
    await expect(page.getByText('Länk kopierad!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Kopierad!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    // spec §9: the confirmation lasts 2 seconds.
    await expect(page.getByRole('button', { name: 'Kopiera länk' })).toBeVisible({ timeout: 4000 });

    const sms = await page.getByRole('link', { name: 'SMS' }).getAttribute('href');
    expect(sms!.startsWith('sms:?&body=')).toBe(true);
    const smsBody = decodeURIComponent(sms!.slice('sms:?&body='.length));
    expect(smsBody).toContain(link);
    expect(smsBody).toContain('Hej! Jag säljer hållbara produkter');
    const whatsapp = await page.getByRole('link', { name: /WhatsApp/ }).getAttribute('href');
    expect(new URL(whatsapp!).searchParams.get('text')).toContain(link);
    const facebook = await page.getByRole('link', { name: /Facebook/ }).getAttribute('href');
    expect(new URL(facebook!).searchParams.get('u')).toBe(link);
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard som säljare');
  });

  test('where the browser has a share sheet, “Dela” hands it the link and the sales appeal', async ({ page }) => {
    // Debian's headless Chromium has no share sheet: this stands in for the browser's own, and
    // records what the page hands it (the first time the person closes the sheet, then shares).
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      Object.assign(window, { sharedData: shared });
      Object.defineProperty(navigator, 'share', {
        value: async (data: ShareData) => {
          shared.push(data);
          if (shared.length === 1) throw new DOMException('Stängd', 'AbortError');
        },
      });
    });
    const token = await signInQuickly(page, 'noah@demo.se');
    const { personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    await page.goto('/dashboard');
    const share = page.getByRole('button', { name: 'Dela', exact: true });
    await share.click();
    await share.click();
    const shared = await page.evaluate(() => (window as unknown as { sharedData: ShareData[] }).sharedData);
    expect(shared).toHaveLength(2);
    expect(shared[1]!.url).toBe(personal.personal_link);
    expect(shared[1]!.text).toContain('Hej! Jag säljer hållbara produkter');
    // Closing the sheet is a choice, not a failure: no error toast.
    await expect(page.getByText('Kunde inte dela länken')).toHaveCount(0);
  });

  test('the personal catalogue downloads as a PDF with the seller’s name and link', async ({ page }) => {
    const token = await signInQuickly(page, 'noah@demo.se');
    const { user, personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    await page.goto('/dashboard');
    // The card says how a paper catalogue sells, so it is not a mostly empty box beside the link (issue 33).
    await expect(page.getByRole('list', { name: 'Så används katalogen' }).getByRole('listitem')).toHaveCount(3);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Ladda ner katalog' }).click();
    const download = await downloading;
    // Named as buyers see the seller (the first name by default), with no class or school (decision 037).
    expect(download.suggestedFilename()).toBe('katalog-Noah.pdf');
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('/usr/bin/pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain(user.public_seller_name);
    expect(text).not.toContain(user.full_name);
    expect(text).toContain(personal.personal_link!);
    await expect(page.getByText('Katalog nedladdad')).toBeVisible();
  });

  test('a superadmin without a group gets the Superadmin button and a friendly note instead of figures', async ({ page }) => {
    await signInQuickly(page, 'admin@saljportalen.se');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Sara!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Du är inte med i någon aktiv grupp just nu' })).toBeVisible();
    await expect(page.locator('dl')).toHaveCount(0);
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard utan grupp');
    await page.getByRole('link', { name: 'Superadmin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('the dashboard checks the session first, and renews an expired token from the refresh cookie', async ({ page }) => {
    const token = await signInQuickly(page, 'noah@demo.se');
    // The stored token ran out a minute ago; the refresh cookie from the sign-in is still good.
    await storeTokenOutsideApp(page, forgedToken({ ...tokenClaims(token), exp: Math.floor(Date.now() / 1000) - 60 }));
    const release = await holdRequests(page, '**/api/auth/refresh');

    await page.goto('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'Kontrollerar behörighet...' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
    await expectAccessible(page, '/dashboard kontrollerar behörighet');
    release();

    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Noah!' })).toBeVisible();
    await expect(page.getByText('Kontrollerar behörighet...')).toHaveCount(0);
    const renewed = await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
    expect(tokenClaims(renewed!).exp).toBeGreaterThan(Date.now() / 1000);
    await expect(toastRegion(page).getByText('Sessionen har gått ut')).toHaveCount(0);
  });

  test('while the figures are on their way the page shows placeholders, then the real figures', async ({ page }) => {
    const token = await signInQuickly(page, 'noah@demo.se');
    const { personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    const release = await holdRequests(page, '**/api/me/summary');
    await page.goto('/dashboard');

    // The router waits a second for the figures with only the screen-reader text; then the page's
    // own placeholders are drawn where the greeting and the figures will be.
    const placeholders = page.getByRole('main').locator('.animate-pulse');
    await expect(placeholders.first()).toBeVisible();
    expect(await placeholders.count()).toBeGreaterThanOrEqual(3);
    for (const placeholder of await placeholders.all()) {
      await expect(placeholder).toBeVisible();
      const box = (await placeholder.boundingBox())!;
      expect(box.width * box.height).toBeGreaterThan(100);
    }
    await expect(page.getByRole('status').filter({ hasText: 'Laddar översikten...' })).toBeAttached();
    await expect(stat(page, 'Din försäljning')).toHaveCount(0);
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard laddar');
    release();

    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Noah!' })).toBeVisible();
    await expect(stat(page, 'Din försäljning')).toHaveText(formatSek(personal.total_sales));
    await expect(placeholders).toHaveCount(0);
  });

  test('a load the server refuses says so, and “Försök igen” brings the real figures', async ({ page }) => {
    const token = await signInQuickly(page, 'noah@demo.se');
    const { personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    // A genuine failure of the real server, neither 401 nor 403: request headers too large.
    await oversizeRequestsTo(page, '/api/me/summary');
    // Every answer to the call is kept: which one the page sees first (the service worker's
    // or its own) is not fixed, only that the server refused the page's request.
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/me/summary') statuses.push(response.status());
    });
    await page.goto('/dashboard');

    await expect(page.getByText('Något gick fel vid laddning av data.')).toBeVisible();
    expect(statuses).toContain(431);
    await expect(page.getByRole('heading', { level: 1, name: 'Översikt' })).toBeVisible();
    // Not a session problem: the visitor stays signed in on the dashboard.
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY)).not.toBeNull();
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard laddningsfel');

    await removeOversizedCookies(page);
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/me/summary');
    await page.getByRole('button', { name: 'Försök igen' }).click();
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Noah!' })).toBeVisible();
    await expect(stat(page, 'Din försäljning')).toHaveText(formatSek(personal.total_sales));
    await expect(page.getByText('Något gick fel vid laddning av data.')).toHaveCount(0);
  });

  test('one toast at a time: a new message replaces the one showing', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInQuickly(page, 'noah@demo.se');
    await page.goto('/dashboard');
    await expect(page.getByLabel('Länk')).toBeVisible();
    // Counts, on every change of the page, the toasts that are shown and not on their way out.
    await page.evaluate(() => {
      const record = window as unknown as { mostToastsShown: number };
      record.mostToastsShown = 0;
      new MutationObserver(() => {
        const shown = document.querySelectorAll('[data-sonner-toast][data-visible="true"]:not([data-removed="true"])').length;
        record.mostToastsShown = Math.max(record.mostToastsShown, shown);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const mostToastsShown = () => page.evaluate(() => (window as unknown as { mostToastsShown: number }).mostToastsShown);
    const current = page.locator('[data-sonner-toast]:not([data-removed="true"])');

    // Copy, and at once download the catalogue: the download's toast takes the copy's place.
    await page.getByRole('button', { name: 'Kopiera länk' }).click();
    await expect(toastRegion(page).getByText('Länk kopierad!')).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Ladda ner katalog' }).click();
    await downloading;
    await expect(toastRegion(page).getByText('Katalog nedladdad')).toBeVisible();
    await expect(current).toHaveCount(1);
    await expect(toastRegion(page).getByText('Länk kopierad!')).toHaveCount(0);

    // Two copies in quick succession: still one toast.
    await page.getByRole('button', { name: /^(Kopiera länk|Kopierad!)$/ }).click();
    await page.getByRole('button', { name: /^(Kopiera länk|Kopierad!)$/ }).click();
    await expect(toastRegion(page).getByText('Länk kopierad!')).toBeVisible();
    await expect(current).toHaveCount(1);
    await expect(toastRegion(page).getByText('Katalog nedladdad')).toHaveCount(0);
    expect(await mostToastsShown()).toBe(1);
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard med ett meddelande');
  });
});

/** How far down the page an element begins, in CSS pixels. */
const topOf = async (page: Page, locator: ReturnType<Page['getByRole']>) => {
  const box = await locator.boundingBox();
  expect(box, 'elementet syns inte').not.toBeNull();
  return box!.y + (await page.evaluate(() => window.scrollY));
};

test('a teacher’s dashboard leads with the class and ends with their own selling; a pupil’s begins with their own', async ({ page }) => {
  await signInQuickly(page, 'larare@bjorkskolan.se');
  await page.goto('/dashboard');
  const classTools = page.getByText('Klassens mål och topplista');
  const classList = page.getByRole('button', { name: 'Visa klasslistan' });
  const ownSelling = page.getByRole('heading', { name: 'Din egen försäljning' });
  await expect(ownSelling).toBeVisible();
  await expect(classList).toBeVisible();
  const tools = await topOf(page, classTools);
  expect(tools).toBeLessThan(await topOf(page, page.getByRole('heading', { name: 'Topplista' })));
  expect(await topOf(page, classList)).toBeLessThan(await topOf(page, ownSelling));
  expect(await topOf(page, ownSelling)).toBeLessThan(await topOf(page, page.getByRole('heading', { name: 'Din personliga länk' })));
  // Under the greeting, within the first screen of a phone.
  expect(tools).toBeLessThan(page.viewportSize()!.height);

  await signInQuickly(page, 'noah@demo.se');
  await page.goto('/dashboard');
  const ownLink = page.getByRole('heading', { name: 'Din personliga länk' });
  await expect(page.getByRole('heading', { name: 'Topplista' })).toBeVisible();
  expect(await topOf(page, ownLink)).toBeLessThan(await topOf(page, page.getByRole('heading', { name: 'Topplista' })));
  await expect(page.getByText('Klassens mål och topplista')).toHaveCount(0);
});
