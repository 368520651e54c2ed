import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { TAccountGroupsResponse, TGroupTotalsResponse, TLeaderboardResponse, TMeSummaryResponse } from '@saljportalen/contract';
import { formatCount, formatSek, roundToOre } from '../apps/web/src/lib/format';
import { expectAccessible, signInQuickly } from './support/fixtures';

/**
 * The seller's dashboard against the real server and the demo data. The expected figures are
 * not written down: they are summed here from the leaderboard's per-member rows (which a group
 * admin always receives), and those sums must equal the group totals the server reports and
 * the dashboard shows.
 */

async function apiGet<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
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
    apiGet<TLeaderboardResponse>(page, token, '/api/group/leaderboard-mine'),
  ]);

const sum = (values: number[]) => roundToOre(values.reduce((total, value) => total + value, 0));

/** The value beside a figure's label on the dashboard (the figures are a dl of dt/dd). */
const stat = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

const leaderboardRows = (page: Page) => page.getByRole('table', { name: 'Topplista' }).locator('tbody tr');

const HIDDEN_MESSAGE = 'Topplistan är för närvarande dold av administratören.';

/** axe measures colours mid-animation: wait until every toast has faded fully in. */
async function toastsSettled(page: Page): Promise<void> {
  const shown = page.locator('[data-sonner-toast][data-removed="false"][data-visible="true"]');
  for (let index = 0; index < (await shown.count()); index++) await expect(shown.nth(index)).toHaveCSS('opacity', '1');
}

/** The header's navigation, opening the phone menu first where the header folds into one. */
async function headerNav(page: Page) {
  const menuButton = page.getByRole('button', { name: 'Öppna menyn' });
  if (await menuButton.isVisible()) {
    await menuButton.click();
    return page.getByRole('navigation', { name: 'Mobilmeny' });
  }
  return page.getByRole('navigation', { name: 'Huvudmeny' });
}

test.describe('dashboard', () => {
  test('a group admin sees personal and group figures that add up from the members’ sales', async ({ page }) => {
    const token = await signInQuickly(page, 'larare@bjorkskolan.se');
    const [summary, totals, board] = await dashboardData(page, token);

    // Cross-checks on the server's own answers: my row, and the group as the sum of its members.
    const mine = board.items.find((item) => item.user_id === summary.user.id)!;
    expect(mine, 'gruppadminen står på topplistan').toBeDefined();
    expect(summary.personal.total_sales).toBe(mine.sales);
    expect(summary.personal.total_commission).toBe(mine.commission);
    const groupSales = sum(board.items.map((item) => item.sales));
    const groupCommission = sum(board.items.map((item) => item.commission));
    expect(totals.totals.total_sales).toBe(groupSales);
    expect(totals.totals.total_commission).toBe(groupCommission);
    expect(groupSales).toBeGreaterThan(0);
    const sortedSales = board.items.map((item) => item.sales);
    expect(sortedSales).toEqual([...sortedSales].sort((a, b) => b - a));

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Karin!' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByText(summary.group_hint!.name, { exact: true })).toBeVisible();
    await expect(main.getByText(summary.group_hint!.code, { exact: true })).toBeVisible();

    await expect(stat(page, 'Din försäljning')).toHaveText(formatSek(mine.sales));
    await expect(stat(page, 'Din intjäning')).toHaveText(formatSek(mine.commission));
    await expect(stat(page, 'Dina ordrar')).toHaveText(formatCount(summary.personal.orders_count));
    await expect(stat(page, 'Totalt sålt')).toHaveText(formatSek(groupSales));
    await expect(stat(page, 'Total intjäning')).toHaveText(formatSek(groupCommission));
    await expect(stat(page, 'Ordrar')).toHaveText(formatCount(totals.totals.orders_count));

    // Every member with a rank number, in the server's order; my own row is marked.
    const rows = leaderboardRows(page);
    await expect(rows).toHaveCount(board.items.length);
    for (const [index, item] of board.items.entries()) {
      await expect(rows.nth(index).locator('td').first()).toHaveText(String(index + 1));
      await expect(rows.nth(index)).toContainText(item.seller_name);
      await expect(rows.nth(index)).toContainText(formatSek(item.sales));
    }
    await expect(rows.filter({ has: page.getByText('Du', { exact: true }) })).toContainText(mine.seller_name);

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
      const hidden = await apiGet<TLeaderboardResponse>(page, sellerToken, '/api/group/leaderboard-mine');
      expect(hidden).toEqual({ group: { leaderboard_visible: false }, items: [] });
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
      const shown = await apiGet<TLeaderboardResponse>(page, shownToken, '/api/group/leaderboard-mine');
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
      expect(totals.totals.total_sales).toBe(sum(board.items.map((item) => item.sales)));
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

  test('the personal catalogue downloads as a PDF with the seller’s name and link', async ({ page }) => {
    const token = await signInQuickly(page, 'noah@demo.se');
    const { user, personal } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    await page.goto('/dashboard');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Ladda ner katalog' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^katalog-noah-[a-z0-9-]+\.pdf$/);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('/usr/bin/pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain(user.full_name);
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

  test('loading shows placeholders, and a failed load says so and retries', async ({ page }) => {
    await signInQuickly(page, 'noah@demo.se');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/me/summary', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"INTERNAL","message":"Internt fel"}}' });
    });
    await page.goto('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'Laddar översikten...' })).toBeAttached();
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard laddar');
    release();

    await expect(page.getByText('Något gick fel vid laddning av data.')).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, '/dashboard laddningsfel');
    await page.unroute('**/api/me/summary');
    await page.getByRole('button', { name: 'Försök igen' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Noah!' })).toBeVisible();
  });
});
