import { expect, type Page } from '@playwright/test';
import type { TMeSummaryResponse, TSalesPerDayResponse, TSalesPerWeekResponse } from '@saljportalen/contract';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { expectAccessible, signInQuickly, test } from './support/fixtures';

/**
 * Issue 20, point 7: the class's sales over time as a chart with its table, on the dashboard's
 * group card and the admin group detail, and every group's sales per week on the admin overview.
 * uPlot is its own chunk, loaded only where a chart is drawn, never with /login.
 */

const CHART_CHUNK = /\/assets\/uplot-chart-[^/]+\.js$/;

/** The scripts the page itself asks for (not the service worker's precache). */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

async function apiGet<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

const wholeNumber = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
const kronor = (sek: number) => `${wholeNumber.format(sek)}\u00a0kr`;
const soldDays = (data: TSalesPerDayResponse) => data.days.filter((day) => day.sales !== 0 || day.orders_count !== 0);

/** The chart, its hidden table for screen readers, then 'Visa som tabell' and back. */
async function expectChartAndTable(page: Page, heading: string, rows: { count: number; first: string[] }) {
  const chart = page.getByTestId('sales-chart').filter({ has: page.getByRole('heading', { name: heading }) });
  // The chart's chunks load after the page's first paint; a busy test machine may take a while.
  await expect(chart.locator('canvas')).toBeVisible({ timeout: 30_000 });
  // The canvas is hidden from screen readers, which get the same figures as a table.
  await expect(chart.locator('[aria-hidden="true"] canvas')).toHaveCount(1);
  const readerTable = chart.getByRole('table');
  await expect(readerTable).toHaveCount(1);
  await expect(readerTable.locator('tbody tr')).toHaveCount(rows.count);
  await expectAccessible(page, `${page.url()} (diagram)`);

  const toggle = chart.getByRole('button', { name: 'Visa som tabell' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(chart.locator('canvas')).toHaveCount(0);
  const table = chart.getByRole('table');
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(rows.count);
  await expect(table.locator('tbody tr').first().locator('th, td')).toHaveText(rows.first);
  await expectAccessible(page, `${page.url()} (tabell)`);
  await chart.getByRole('button', { name: 'Visa som diagram' }).click();
  await expect(chart.locator('canvas')).toBeVisible();
}

test.describe('sales over time', () => {
  // Four axe runs a test on a phone of two shared cores.
  test.describe.configure({ timeout: 120_000 });

  test('/login loads no chart code', async ({ page }) => {
    const scripts = scriptsOf(page);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Logga in' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => CHART_CHUNK.test(script) || /sales-chart/.test(script))).toEqual([]);
  });

  test("the dashboard's group card shows the class's sales over the campaign, as a chart and as a table", async ({ page }) => {
    const token = await signInQuickly(page, 'larare@bjorkskolan.se');
    const scripts = scriptsOf(page);
    const summary = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    const sales = await apiGet<TSalesPerDayResponse>(page, token, `/api/group/sales-per-day?group_id=${summary.group_hint!.id}`);
    const days = soldDays(sales);
    expect(days.length).toBeGreaterThan(0);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Försäljning över tid' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(`${kronor(sales.total_sales)} sålt sedan ${sales.from}`)).toBeVisible();
    const first = days[0]!;
    await expectChartAndTable(page, 'Försäljning över tid', {
      count: days.length,
      first: [
        first.date,
        kronor(first.sales),
        kronor(first.commission),
        String(first.orders_count),
        kronor(sales.earlier_sales + first.sales),
      ],
    });
    expect(scripts.some((script) => CHART_CHUNK.test(script))).toBe(true);
  });

  test("with a class goal the line is what the class has earned (its commission), labelled 'Intjänat' against 'Mål'", async ({ page }) => {
    const token = await signInQuickly(page, 'larare@bjorkskolan.se');
    const summary = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
    const groupId = summary.group_hint!.id;
    const headers = { authorization: `Bearer ${token}` };
    const endsOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const set = await page.request.post('/api/group/goal', {
      headers,
      data: { group_id: groupId, amount: 60000, purpose: 'Klassresa till Liseberg', ends_on: endsOn },
    });
    expect(set.ok()).toBe(true);
    try {
      const sales = await apiGet<TSalesPerDayResponse>(page, token, `/api/group/sales-per-day?group_id=${groupId}`);
      const days = soldDays(sales);
      const percent = Math.floor((sales.total_commission / 60000) * 100);
      await page.goto('/dashboard');
      const chart = page.getByTestId('sales-chart').filter({ has: page.getByRole('heading', { name: 'Försäljning över tid' }) });
      await expect(chart.locator('canvas')).toBeVisible({ timeout: 30_000 });
      await expect(
        chart.getByText(
          `${kronor(sales.total_commission)} intjänat av målet ${kronor(60000)} (${percent} %), ${kronor(sales.total_sales)} sålt`,
        ),
      ).toBeVisible();
      const legend = chart.locator('ul[aria-hidden="true"]');
      await expect(legend.getByText('Intjänat', { exact: true })).toBeVisible();
      await expect(legend.getByText('Mål', { exact: true })).toBeVisible();

      await chart.getByRole('button', { name: 'Visa som tabell' }).click();
      const table = chart.getByRole('table');
      await expect(table.getByRole('columnheader')).toHaveText(['Datum', 'Sålt', 'Intjänat', 'Ordrar', 'Intjänat hittills']);
      const first = days[0]!;
      await expect(table.locator('tbody tr').first().locator('th, td')).toHaveText([
        first.date,
        kronor(first.sales),
        kronor(first.commission),
        String(first.orders_count),
        kronor(sales.earlier_commission + first.commission),
      ]);
    } finally {
      await page.request.post('/api/group/goal', { headers, data: { group_id: groupId, amount: null } });
    }
  });

  test('the admin group detail shows the same as the dashboard', async ({ page }) => {
    const token = await signInQuickly(page, 'admin@saljportalen.se');
    const options = await apiGet<{ items: { id: number; name: string }[] }>(page, token, '/api/admin/groups/options');
    const group = options.items.find((item) => item.name.includes('6B'))!;
    const sales = await apiGet<TSalesPerDayResponse>(page, token, `/api/admin/groups/${group.id}/sales-per-day`);
    const days = soldDays(sales);

    await page.goto(`/admin/groups/${group.id}`);
    await expect(page.getByRole('heading', { name: 'Försäljning över tid', level: 2 })).toBeVisible({ timeout: 30_000 });
    await expectChartAndTable(page, 'Försäljning över tid', {
      count: days.length,
      first: [
        days[0]!.date,
        kronor(days[0]!.sales),
        kronor(days[0]!.commission),
        String(days[0]!.orders_count),
        kronor(sales.earlier_sales + days[0]!.sales),
      ],
    });
  });

  test('the admin overview shows every group per week', async ({ page }) => {
    const token = await signInQuickly(page, 'admin@saljportalen.se');
    const weeks = await apiGet<TSalesPerWeekResponse>(page, token, '/api/admin/overview/sales-per-week');
    const firstWeek = weeks.weeks[0]!;
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Försäljning per vecka' })).toBeVisible({ timeout: 30_000 });
    await expectChartAndTable(page, 'Försäljning per vecka', {
      count: weeks.weeks.length,
      first: [
        `vecka ${Number(firstWeek.week.slice(6))}, ${firstWeek.week.slice(0, 4)} (från ${firstWeek.starts_on})`,
        kronor(firstWeek.sales),
        kronor(firstWeek.commission),
        String(firstWeek.orders_count),
        String(firstWeek.groups_count),
      ],
    });
  });
});
