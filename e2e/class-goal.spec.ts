import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { stockholmToday, type TGroupTotalsResponse, type TMeSummaryResponse } from '@saljportalen/contract';
import { apiToken, expectAccessible, signInQuickly, toastRegion } from './support/fixtures';

/**
 * Issue 20 on a phone: the teacher of Klass 6B sets a class goal and the kinder 'participation'
 * leaderboard on the dashboard's group card; a pupil then sees the goal's progress bar and who
 * has sold, with no amounts and no ranks. The group is put back as it was afterwards (the other
 * specs read 6B's full leaderboard).
 */

const PURPOSE = 'Klassresa till Liseberg';

function dayFromToday(days: number): string {
  const [year, month, day] = stockholmToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

async function apiGet<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

const wholeNumber = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
const kronor = (sek: number) => `${wholeNumber.format(sek)}\u00a0kr`;
/** A goal is measured in commission (decision 038): '8 734 kr intjänat av 60 000 kr (14 %)'. */
const earned = (commission: number, goal: number) =>
  `${kronor(commission)} intjänat av ${kronor(goal)} (${Math.floor((commission / goal) * 100)} %)`;

test.afterEach(async ({ request }) => {
  const token = await apiToken(request, 'larare@bjorkskolan.se');
  const headers = { authorization: `Bearer ${token}` };
  const groupId = ((await (await request.get('/api/me/summary', { headers })).json()) as { group_hint: { id: number } }).group_hint.id;
  await request.post('/api/group/goal', { headers, data: { group_id: groupId, amount: null } });
  await request.post('/api/group/settings', { headers, data: { group_id: groupId, leaderboard_mode: 'full', show_leaderboard: true } });
});

test('the teacher sets a goal and the participation list; a pupil sees the progress and who has sold', async ({ page }) => {
  // Two sign-ins, two pages and four accessibility checks: more than one ordinary page's time.
  test.setTimeout(180_000);
  await signInQuickly(page, 'larare@bjorkskolan.se');
  await page.goto('/dashboard');
  await page.getByText('Klassens mål och topplista').click();

  await page.getByLabel('Vad samlar ni till?').fill(PURPOSE);
  await page.getByLabel('Mål i kronor').fill('0');
  await page.getByLabel('Sista dag').fill(dayFromToday(30));
  await page.getByRole('button', { name: 'Spara målet' }).click();
  // The contract's own message, beside the field, before anything is sent.
  await expect(page.getByText('Målet måste vara större än 0 kr')).toBeVisible();
  await page.getByLabel('Mål i kronor').fill('100000');
  await page.getByRole('button', { name: 'Spara målet' }).click();
  await expect(toastRegion(page).getByText('Målet är sparat')).toBeVisible();

  const goalBar = page.getByRole('progressbar', { name: `Vi samlar till: ${PURPOSE}` });
  await expect(goalBar).toBeVisible();
  await expect(goalBar).toHaveAttribute('aria-valuetext', /^[\d\u00a0]+\u00a0kr intjänat av 100\u00a0000\u00a0kr \(\d+ %\)$/);
  await expect(page.getByText('30 dagar kvar')).toBeVisible();

  const modes = page.getByRole('group', { name: 'Vad topplistan visar för klassen' });
  await expect(modes.getByRole('radio', { name: /Hela topplistan/ })).toBeChecked();
  await modes.getByRole('radio', { name: /Bara vilka som har sålt/ }).check();
  await expect(toastRegion(page).getByText('Inställning uppdaterad')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'De som har sålt' })).toBeVisible();
  await expectAccessible(page, 'gruppkortet med mål och lägen');

  const pupilToken = await signInQuickly(page, 'noah@demo.se');
  await page.goto('/dashboard');
  const { participation, totals } = await apiGet<TGroupTotalsResponse>(page, pupilToken, '/api/group/totals');
  // The class's progress is what it has earned (its commission), not what it has sold.
  const pupilBar = page.getByRole('progressbar', { name: `Vi samlar till: ${PURPOSE}` });
  await expect(pupilBar).toHaveAttribute('aria-valuenow', String(Math.min(100, Math.floor((totals.total_commission / 100000) * 100))));
  await expect(pupilBar).toHaveAttribute('aria-valuetext', earned(totals.total_commission, 100000));
  await expect(page.getByText(`${kronor(totals.total_commission)} intjänat av ${kronor(100000)}`, { exact: true })).toBeVisible();
  const started = `${participation.started} av ${participation.members} har sålt`;
  await expect(page.getByText(started).first()).toBeVisible();
  const list = page.getByRole('list', { name: 'De som har sålt' });
  await expect(list.getByRole('listitem')).toHaveCount(participation.started);
  await expect(list.getByRole('listitem').filter({ hasText: 'Du' })).toHaveCount(1);
  // No amounts and no ranks in the list: no table, no kronor.
  await expect(page.getByRole('columnheader', { name: 'Plats' })).toHaveCount(0);
  expect(await list.innerText()).not.toMatch(/kr|\d/);
  // The pupil has no group settings.
  await expect(page.getByText('Klassens mål och topplista')).toHaveCount(0);
  // The pupil's own goal: private, offered as their share of the class goal.
  await page.getByRole('button', { name: 'Sätt ett eget mål' }).click();
  await page.getByLabel('Mitt mål i kronor').fill('2500');
  await page.getByRole('button', { name: 'Spara mitt mål' }).click();
  // The pupil's own progress is their own commission against their own goal.
  const { personal } = await apiGet<TMeSummaryResponse>(page, pupilToken, '/api/me/summary');
  await expect(page.getByRole('progressbar', { name: 'Ditt eget mål' })).toHaveAttribute(
    'aria-valuetext',
    earned(personal.total_commission, 2500),
  );
  await expectAccessible(page, 'elevens översikt med mål och deltagande');
  await page.getByRole('button', { name: 'Ta bort mitt mål' }).click();
  await expect(page.getByRole('button', { name: 'Sätt ett eget mål' })).toBeVisible();
});
