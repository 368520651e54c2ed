import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { expectAccessible, kronorIn, signInQuickly } from './support/fixtures';

const SUPERADMIN = 'admin@saljportalen.se';

/** Today as a Stockholm calendar day, `YYYY-MM-DD`, and days before it. */
const stockholmToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
const daysBefore = (day: string, days: number) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};

/** "2 818,75 kr" or "2 819 kr" (with whatever spaces Intl and pdftotext use) → 2818.75 / 2819. */
const readSek = (text: string) => Number(text.replace(/[\s\u00a0\u202f]|kr/g, '').replace(',', '.'));

/**
 * The phone and desktop runs share one database: each settles a different demo group, which has
 * orders on most of the last 90 days and no payout yet, so neither run uses up the other's lines.
 */
const groupFor = (testInfo: TestInfo) => (testInfo.project.name === 'phone' ? 'IK Sävedalen F12' : 'Scoutkåren Tallen');

/** A payout as the page lists it: a card on a phone, a table row from tablet width up. */
const payoutRow = (page: Page, testInfo: TestInfo, id: number): Locator =>
  page.getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row').filter({ has: page.getByText(`Nr ${id}`, { exact: true }) });

async function openPayouts(page: Page) {
  await signInQuickly(page, SUPERADMIN);
  await page.goto('/admin/payouts');
  await expect(page.getByRole('heading', { level: 1, name: 'Avräkningar' })).toBeVisible();
  // The list has arrived when its summary replaces the loading text.
  await expect(page.getByRole('status').filter({ hasText: /avräkning/ })).toContainText('i provision');
}

const createForm = (page: Page) => page.getByRole('form', { name: 'Skapa ny avräkning' });

/** Types part of a group's name into the group picker and clicks the group. */
async function chooseGroup(form: Locator, option: string) {
  const picker = form.getByRole('combobox', { name: 'Grupp', exact: true });
  await picker.fill(option.slice(0, 8));
  await form.getByRole('option', { name: option, exact: true }).click();
  await expect(picker).toHaveValue(option);
}

test.describe('payouts', () => {
  test('the superadmin creates a payout, gets its PDF, marks it paid and cannot settle it twice', async ({ page }, testInfo) => {
    const group = groupFor(testInfo);
    const to = stockholmToday();
    const from = daysBefore(to, 100);
    await openPayouts(page);
    await expectAccessible(page, '/admin/payouts');

    const form = createForm(page);
    const archive = form.getByLabel('Arkivera gruppen efter avräkning');
    await expect(archive).toBeChecked();

    // spec §5: every field is required ...
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    await expect(page.getByText('Fyll i alla fält för avräkningen')).toBeVisible();
    await expect(form.getByLabel('Grupp', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('Välj en grupp')).toBeVisible();
    await expect(form.getByText('Välj ett från-datum')).toBeVisible();
    await expect(form.getByText('Välj ett till-datum')).toBeVisible();
    await expectAccessible(page, 'avräkning utan fält');

    // ... and from is not after to.
    await chooseGroup(form, group);
    await form.getByLabel('Från').fill(to);
    await form.getByLabel('Till').fill(from);
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    await expect(page.getByText('Ogiltigt datumintervall')).toBeVisible();
    await expect(form.getByText('Från-datum kan inte vara efter Till-datum.')).toBeVisible();
    await expect(form.getByLabel('Till')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'avräkning med omvänt datumintervall');

    // A period before the shop opened: nothing to settle. The web sends auto-archive on by default,
    // after saying what it means and asking (issue 19).
    await form.getByLabel('Från').fill('2020-01-01');
    await form.getByLabel('Till').fill('2020-01-31');
    const emptyRequest = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/admin/payouts'));
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    await page
      .getByRole('dialog', { name: `Arkivera ${group}?` })
      .getByRole('button', { name: 'Skapa och arkivera' })
      .click();
    expect((await emptyRequest).postDataJSON()).toMatchObject({ from: '2020-01-01', to: '2020-01-31', auto_archive: true });
    await expect(page.getByText('Inget att avräkna')).toBeVisible();
    await expect(page.getByText('Inga ordrar i valt datumintervall.')).toBeVisible();
    await expectAccessible(page, 'inget att avräkna');

    // The real payout. Archiving is turned off here: other journeys still use this demo group.
    await form.getByLabel('Från').fill(from);
    await form.getByLabel('Till').fill(to);
    await archive.uncheck();
    const created = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
    );
    const download = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    const result = (await (await created).json()) as { created: boolean; id: number; amount: number; auto_archived: boolean };
    expect(result).toMatchObject({ created: true, auto_archived: false });
    await expect(page.getByText('Avräkning skapad')).toBeVisible();
    await expect(page.getByText(`Avräkning nr ${result.id} på`)).toBeVisible();

    // The PDF comes by itself, named after the payout.
    const pdf = await download;
    expect(pdf.suggestedFilename()).toBe(`avrakning-${result.id}.pdf`);
    const pdfPath = testInfo.outputPath(pdf.suggestedFilename());
    await pdf.saveAs(pdfPath);
    expect(fs.readFileSync(pdfPath).subarray(0, 4).toString('latin1')).toBe('%PDF');

    // The form starts over, archiving ticked again.
    await expect(form.getByLabel('Grupp', { exact: true })).toHaveValue('');
    await expect(form.getByLabel('Från')).toHaveValue('');
    await expect(form.getByLabel('Till')).toHaveValue('');
    await expect(archive).toBeChecked();

    // The list shows it as a draft; the PDF has the group, the period and the same total.
    const row = payoutRow(page, testInfo, result.id);
    await expect(row).toContainText(group);
    await expect(row).toContainText(`${from} – ${to}`);
    await expect(row.getByText('Utkast', { exact: true })).toBeVisible();
    // innerText keeps cells apart (tabs, new lines); an amount is digits with spaces inside one line.
    const listedCommission = kronorIn(await row.innerText());
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain(group);
    expect(text).toContain(`${from} – ${to}`);
    // One amount (issue 19): the PDF's 'Att betala' after öresavrundning is what the list and the toast say.
    const pdfCommission = readSek(text.match(/Att betala\s+([\d\s\u00a0\u202f]+,\d{2}\s*kr)/)![1]!);
    expect(pdfCommission).toBe(result.amount);
    expect(listedCommission).toBe(pdfCommission);
    expect(listedCommission).toBeGreaterThan(0);
    await expectAccessible(page, 'avräkning skapad');

    // Mark it paid, after saying yes in the dialog.
    const markPaid = row.getByRole('button', { name: /Markera som betald/ });
    const dialog = page.getByRole('dialog', { name: 'Markera som betald?' });
    // Escape changes nothing and puts focus back where it was.
    await markPaid.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(markPaid).toBeFocused();
    await markPaid.click();
    await expect(dialog).toContainText(group);
    await expectAccessible(page, 'bekräfta betald');
    await dialog.getByRole('button', { name: 'Markera som betald' }).click();
    await expect(page.getByText('Markerad som betald')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.getByText('Betald', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /Markera som betald/ })).toHaveCount(0);
    await expect(row.getByRole('button', { name: /Exportera PDF/ })).toBeFocused();
    await expectAccessible(page, 'avräkning betald');

    // Its PDF now says it is paid.
    const paidDownload = page.waitForEvent('download');
    await row.getByRole('button', { name: /Exportera PDF/ }).click();
    const paidPdf = await paidDownload;
    expect(paidPdf.suggestedFilename()).toBe(`avrakning-${result.id}.pdf`);
    const paidPath = testInfo.outputPath(`betald-${paidPdf.suggestedFilename()}`);
    await paidPdf.saveAs(paidPath);
    expect(execFileSync('/usr/bin/pdftotext', ['-layout', paidPath, '-'], { encoding: 'utf8' })).toMatch(/Status\s+Betald/);

    // The same group and period again: every line is already settled.
    await chooseGroup(form, group);
    await form.getByLabel('Från').fill(from);
    await form.getByLabel('Till').fill(to);
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    await page
      .getByRole('dialog', { name: `Arkivera ${group}?` })
      .getByRole('button', { name: 'Skapa och arkivera' })
      .click();
    await expect(page.getByText('Inget att avräkna')).toBeVisible();
    await expect(page.getByText('Alla orderrader i intervallet är redan avräknade.')).toBeVisible();
    await expectAccessible(page, 'redan avräknat');
  });

  test('the list filters on status, group and period', async ({ page }, testInfo) => {
    await openPayouts(page);
    const filters = page.getByRole('form', { name: 'Filtrera avräkningar' });
    const rows = page.getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row').filter({ hasText: /Nr \d+/ });

    // Drafts: the server is asked for 'open' (spec §4), and only drafts come back.
    await filters.getByLabel('Status').selectOption({ label: 'Utkast' });
    const draftRequest = page.waitForRequest((request) => request.url().includes('/api/admin/payouts?'));
    await filters.getByRole('button', { name: 'Filtrera' }).click();
    expect(new URL((await draftRequest).url()).searchParams.get('status')).toBe('open');
    await expect(page).toHaveURL(/status=draft/);
    await expect(rows.filter({ hasText: 'Klass 6B Björkskolan' })).not.toHaveCount(0);
    await expect(rows.getByText('Betald', { exact: true })).toHaveCount(0);
    await expectAccessible(page, 'utkast');

    // Paid ones of one group.
    await filters.getByLabel('Status').selectOption({ label: 'Betalda' });
    await chooseGroup(filters, 'Klass 9A Ekskolan (Arkiverad)');
    await filters.getByRole('button', { name: 'Filtrera' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Klass 9A Ekskolan');
    await expect(rows.first().getByText('Betald', { exact: true })).toBeVisible();
    await expect(rows.first().getByRole('button', { name: /Markera som betald/ })).toHaveCount(0);

    // The filters survive a reload.
    await page.reload();
    await expect(filters.getByLabel('Status')).toHaveValue('paid');
    await expect(filters.getByLabel('Grupp', { exact: true })).toHaveValue('Klass 9A Ekskolan (Arkiverad)');
    await expect(rows).toHaveCount(1);

    // A period before any payout: the empty state.
    await filters.getByLabel('Status').selectOption({ label: 'Alla' });
    await chooseGroup(filters, 'Alla grupper');
    await filters.getByLabel('Från').fill('2020-02-01');
    await filters.getByLabel('Till').fill('2020-01-01');
    await filters.getByRole('button', { name: 'Filtrera' }).click();
    await expect(filters.getByText('Från-datum kan inte vara efter Till-datum.')).toBeVisible();
    await filters.getByLabel('Från').fill('2020-01-01');
    await filters.getByLabel('Till').fill('2020-01-31');
    await filters.getByRole('button', { name: 'Filtrera' }).click();
    await expect(page.getByText('Inga avräkningar.')).toBeVisible();
    await expectAccessible(page, 'inga avräkningar');
  });
});
