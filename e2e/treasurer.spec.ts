import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { sendShopifyWebhook, swedishOrder, swedishRefund } from '../apps/server/test/shopify-webhooks';
import { apiToken, csvRecords, E2E_WEBHOOK_SECRET, expectAccessible, kronorIn, signInQuickly, test, uniqueEmail } from './support/fixtures';

/**
 * Issue 19, the treasurer's points: archiving asks first and names the group (1); members of an
 * archived group see that it has ended, and a late order waits for the superadmin (2, decision 027);
 * 'Att reglera' (3) and one amount in the toast, list, PDF and CSV (4, decision 028).
 * The phone and desktop runs share one database: each makes groups of its own.
 */
const SUPERADMIN = 'admin@saljportalen.se';
const ADMIN_PASSWORD = 'hemligt-losen-1';

const stockholmToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
/** "2 818,75 kr", "−22 kr" (whatever spaces and minus Intl and pdftotext use) → 2818.75 / -22. */
const readSek = (text: string) =>
  Number(
    text
      .replace(/[\s\u00a0\u202f]|kr/g, '')
      .replace('\u2212', '-')
      .replace(',', '.'),
  );
const runId = (testInfo: TestInfo) => `${testInfo.project.name} ${Date.now().toString(36)}`;
let nextOrderId = 7_980_000_000_000 + (Date.now() % 1_000_000) * 10;

const toast = (page: Page) => page.locator('[data-sonner-toast][data-front="true"]:not([data-removed="true"])');

/** A new group whose administrator can sign in; returns its id and the administrator's link code. */
async function groupWithAdmin(page: Page, headers: Record<string, string>, name: string, testInfo: TestInfo) {
  const email = uniqueEmail('kassor', testInfo.project.name);
  const created = await page.request.post('/api/admin/groups/create', {
    headers,
    data: { group_name: name, admin: { email, password: ADMIN_PASSWORD, full_name: 'Karin Kassör' } },
  });
  expect(created.ok()).toBe(true);
  const groupId = ((await created.json()) as { group: { id: number } }).group.id;
  const adminToken = await apiToken(page.request, email, ADMIN_PASSWORD);
  const summary = (await (await page.request.get('/api/me/summary', { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
    personal: { personal_link: string };
  };
  return { groupId, email, linkCode: summary.personal.personal_link.split('/').pop()! };
}

/** A paid order of one line carrying the link code; returns its Shopify ids. */
async function orderWithLink(baseURL: string, linkCode: string, name: string, price: string) {
  const id = nextOrderId++;
  const lineId = id * 10;
  const order = swedishOrder({
    id,
    name,
    refCode: linkCode,
    createdAt: new Date().toISOString(),
    lineItems: [{ id: lineId, productId: null, title: 'Bivaxdukar 3-pack', price, quantity: 1 }],
  });
  expect((await sendShopifyWebhook(baseURL, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);
  return { id, lineId };
}

const createForm = (page: Page) => page.getByRole('form', { name: 'Skapa ny avräkning' });

async function chooseGroup(form: Locator, option: string) {
  const picker = form.getByRole('combobox', { name: 'Grupp', exact: true });
  await picker.fill(option);
  await form.getByRole('option', { name: option, exact: true }).click();
  await expect(picker).toHaveValue(option);
}

async function openPayouts(page: Page) {
  await page.goto('/admin/payouts');
  await expect(page.getByRole('heading', { level: 1, name: 'Avräkningar' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /avräkning/ })).toContainText('i provision');
}

test.describe('the treasurer', () => {
  test('a payout asks before it archives, the members see the group has ended, and a late order waits for the superadmin', async ({
    page,
    baseURL,
  }, testInfo) => {
    const run = runId(testInfo);
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const groupName = `E2E Avslut ${run}`;
    const { groupId, email, linkCode } = await groupWithAdmin(page, headers, groupName, testInfo);
    await orderWithLink(baseURL!, linkCode, `#AVS-${run.replace(' ', '-')}`, '200.00');

    // Point 1: the form says what archiving means, naming the group, and asks.
    await openPayouts(page);
    const form = createForm(page);
    await chooseGroup(form, groupName);
    await form.getByLabel('Från').fill(stockholmToday());
    await form.getByLabel('Till').fill(stockholmToday());
    await expect(form.getByLabel('Arkivera gruppen efter avräkning')).toBeChecked();
    await expect(form).toContainText(`${groupName} arkiveras: eleverna kan inte längre sälja via sina länkar.`);
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/payouts')) posted++;
    });
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    const dialog = page.getByRole('dialog', { name: `Arkivera ${groupName}?` });
    await expect(dialog).toContainText(`${groupName} arkiveras: eleverna kan inte längre sälja via sina länkar.`);
    await expectAccessible(page, 'bekräfta arkivering vid avräkning');
    await dialog.getByRole('button', { name: 'Avbryt' }).click();
    await expect(dialog).toBeHidden();
    expect(posted).toBe(0);

    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Skapa och arkivera' }).click();
    await expect(toast(page)).toContainText('Avräkning skapad');
    await expect(toast(page)).toContainText('Gruppen är arkiverad.');
    await download;
    expect(posted).toBe(1);

    // Point 2: the group's administrator, a member, sees that it has ended and its final figures.
    const memberPage = await page.context().newPage();
    await signInQuickly(memberPage, email, ADMIN_PASSWORD);
    await memberPage.goto('/dashboard');
    await expect(memberPage.getByRole('heading', { name: 'Gruppen är avslutad' })).toBeVisible();
    await expect(memberPage.getByRole('heading', { name: 'Gruppens slutresultat' })).toBeVisible();
    await expect(memberPage.getByText(/^200\skr$/).first()).toBeVisible();
    // The link and the catalogue no longer sell for the group.
    await expect(memberPage.getByRole('button', { name: 'Kopiera länk' })).toHaveCount(0);
    await expect(memberPage.getByRole('button', { name: 'Ladda ner katalog' })).toHaveCount(0);
    await expectAccessible(memberPage, '/dashboard för en avslutad grupp');
    await memberPage.close();
    // The pages shared one storage: the superadmin signs in again.
    await signInQuickly(page, SUPERADMIN);

    // An order that comes later with the group's link waits under 'Ordrar utan säljare', saying whose it was.
    const lateName = `#SEN-${run.replace(' ', '-')}`;
    await orderWithLink(baseURL!, linkCode, lateName, '120.00');
    await page.goto('/admin/orders/unattributed');
    await expect(page.getByRole('heading', { level: 1, name: 'Ordrar utan säljare' })).toBeVisible();
    const lateRow = page.getByRole('row', { name: new RegExp(lateName) });
    await expect(lateRow).toContainText(linkCode);
    await expect(lateRow).toContainText(`Karin Kassörs länk i ${groupName} (arkiverad)`);
    await expectAccessible(page, '/admin/orders/unattributed med sen order');
    const group = (await (await page.request.get(`/api/admin/group/${groupId}`, { headers })).json()) as {
      totals: { total_sales: number };
    };
    expect(group.totals.total_sales).toBe(200);
  });

  test("'Arkivera' on the group detail asks first, naming the group", async ({ page }, testInfo) => {
    const token = await signInQuickly(page, SUPERADMIN);
    const groupName = `E2E Arkivera ${runId(testInfo)}`;
    const { groupId } = await groupWithAdmin(page, { authorization: `Bearer ${token}` }, groupName, testInfo);
    await page.goto(`/admin/groups/${groupId}`);
    const archive = page.getByRole('button', { name: 'Arkivera' });
    await archive.click();
    const dialog = page.getByRole('dialog', { name: `Arkivera ${groupName}?` });
    await expect(dialog).toContainText(`${groupName} arkiveras: eleverna kan inte längre sälja via sina länkar.`);
    await expectAccessible(page, 'bekräfta arkivering på gruppen');
    // Escape changes nothing and gives focus back.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(archive).toBeFocused();
    await expect(page.getByText('Aktiv', { exact: true })).toBeVisible();

    await archive.click();
    await dialog.getByRole('button', { name: 'Arkivera' }).click();
    await expect(toast(page)).toContainText('Grupp arkiverad');
    await expect(page.getByText('Arkiverad', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Återaktivera' })).toBeVisible();
  });

  test("a refund after a payout shows under 'Att reglera', and every place shows one amount to pay", async ({
    page,
    baseURL,
  }, testInfo) => {
    const run = runId(testInfo);
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const groupName = `E2E Reglera ${run}`;
    const { linkCode } = await groupWithAdmin(page, headers, groupName, testInfo);
    // 59,30 kr: a commission with öre in it.
    const order = await orderWithLink(baseURL!, linkCode, `#REG-${run.replace(' ', '-')}`, '59.30');

    // A payout that leaves the group selling.
    await openPayouts(page);
    const form = createForm(page);
    await chooseGroup(form, groupName);
    await form.getByLabel('Från').fill(stockholmToday());
    await form.getByLabel('Till').fill(stockholmToday());
    await form.getByLabel('Arkivera gruppen efter avräkning').uncheck();
    const created = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
    );
    const download = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    const result = (await (await created).json()) as { id: number; amount: number };
    expect(Number.isInteger(result.amount)).toBe(true);

    // Point 4: the toast, the list, the PDF and the CSV show one amount to pay, in whole kronor.
    const toastAmount = readSek((await toast(page).innerText()).match(/på (-?[\d\s\u00a0\u202f]+kr)/)![1]!);
    expect(toastAmount).toBe(result.amount);
    const row = page
      .getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row')
      .filter({ has: page.getByText(`Nr ${result.id}`, { exact: true }) });
    const listed = kronorIn(await row.innerText());
    expect(listed).toBe(result.amount);
    const pdfPath = testInfo.outputPath('avrakning.pdf');
    await (await download).saveAs(pdfPath);
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    const pdfToPay = readSek(text.match(/Att betala\s+(-?[\d\s\u00a0]+,\d{2}\s*kr)/)![1]!);
    const pdfRounding = readSek(text.match(/Öresavrundning\s+(-?[\d\s\u00a0]+,\d{2}\s*kr)/)![1]!);
    const pdfExact = readSek(text.match(/Provision\s+(-?[\d\s\u00a0]+,\d{2}\s*kr)/)![1]!);
    expect(pdfToPay).toBe(result.amount);
    expect(Math.round((pdfExact + pdfRounding) * 100)).toBe(result.amount * 100);
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportera CSV' }).click();
    const csvPath = testInfo.outputPath('avrakningar.csv');
    await (await csvDownload).saveAs(csvPath);
    const [header, ...records] = csvRecords(fs.readFileSync(csvPath, 'utf8').replace(/^\uFEFF/, ''));
    const csvRow = records.find((record) => record[0] === String(result.id))!;
    expect(readSek(csvRow[header!.indexOf('Att betala (kr)')]!)).toBe(result.amount);
    await expectAccessible(page, 'avräkning med öresavrundning');

    // Point 3: the customer returns the first order: the commission paid out is owed back.
    const refund = swedishRefund({
      id: nextOrderId++,
      orderId: order.id,
      processedAt: new Date().toISOString(),
      lines: [{ id: nextOrderId++, lineItemId: order.lineId, quantity: 1 }],
    });
    expect((await sendShopifyWebhook(baseURL!, 'refunds/create', refund, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);
    await page.reload();
    const outstanding = page.getByRole('region', { name: 'Att reglera' });
    const item = outstanding.getByRole('listitem').filter({ hasText: groupName });
    await expect(item).toContainText('Aktiv');
    await expect(item).toContainText(/Att få tillbaka \d+\skr/);
    await expectAccessible(page, 'att reglera');

    // 'Avräkna' fills in the form with the period that settles it, without archiving.
    await item.getByRole('button', { name: `Avräkna ${groupName}` }).click();
    await expect(form.getByRole('combobox', { name: 'Grupp', exact: true })).toHaveValue(groupName);
    await expect(form.getByLabel('Arkivera gruppen efter avräkning')).not.toBeChecked();
    const settled = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
    );
    const correctionPdf = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Skapa avräkning' }).click();
    const owed = (await (await settled).json()) as { created: boolean; amount: number };
    expect(owed.created).toBe(true);
    expect(owed.amount).toBeLessThan(0);
    // The refund came on a day the first payout covered: the new one corrects it, and says so (decision 065).
    const correctionPath = testInfo.outputPath('rattelse.pdf');
    await (await correctionPdf).saveAs(correctionPath);
    const correctionText = execFileSync('/usr/bin/pdftotext', ['-layout', correctionPath, '-'], { encoding: 'utf8' });
    expect(correctionText).toContain(`Rättelse av avräkning nr ${result.id}`);
    await expect(toast(page)).toContainText('Avräkning skapad');
    await expect(outstanding.getByRole('listitem').filter({ hasText: groupName })).toHaveCount(0);
  });

  test("a group's payout details: entered with Bankgirot's checks, needed to mark a payout paid, shown masked to the teacher", async ({
    page,
    baseURL,
  }, testInfo) => {
    const run = runId(testInfo);
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const groupName = `E2E Konto ${run}`;
    const { groupId, email, linkCode } = await groupWithAdmin(page, headers, groupName, testInfo);
    await orderWithLink(baseURL!, linkCode, `#KTO-${run.replace(' ', '-')}`, '200.00');
    const created = await page.request.post('/api/admin/payouts', {
      headers,
      data: { group_id: groupId, from: stockholmToday(), to: stockholmToday(), auto_archive: false },
    });
    const payoutId = ((await created.json()) as { id: number }).id;

    // Without an account the dialog says what is missing, where to add it, and cannot confirm.
    await openPayouts(page);
    const row = page
      .getByRole(testInfo.project.name === 'phone' ? 'listitem' : 'row')
      .filter({ has: page.getByText(`Nr ${payoutId}`, { exact: true }) });
    await row.getByRole('button', { name: /Markera som betald/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Markera som betald?' });
    await expect(dialog.getByRole('alert')).toContainText('Gruppen saknar utbetalningsuppgifter');
    await expect(dialog.getByRole('button', { name: 'Markera som betald' })).toBeDisabled();
    await expectAccessible(page, 'betald utan konto');
    await dialog.getByRole('link', { name: `Till ${groupName}` }).click();

    // The group's page: each number is checked as Bankgirot checks it, the refusal at its field.
    const card = page.getByRole('region', { name: 'Utbetalningsuppgifter' });
    await expect(card).toContainText('Gruppen har inga utbetalningsuppgifter');
    await card.getByRole('button', { name: 'Lägg in utbetalningsuppgifter' }).click();
    await card.getByRole('radio', { name: 'Bankkonto' }).check();
    await card.getByLabel('Clearingnummer').fill('9999');
    await card.getByLabel('Kontonummer').fill('123456788');
    await card.getByLabel('Kontohavare').fill(`Kontoskolan ${run}`);
    await card.getByRole('button', { name: 'Spara utbetalningsuppgifter' }).click();
    await expect(card.getByLabel('Clearingnummer')).toHaveAccessibleDescription(/hör inte till någon bank i Sverige/);
    await expect(card.getByLabel('Clearingnummer')).toBeFocused();
    await card.getByLabel('Clearingnummer').fill('6000');
    await card.getByRole('button', { name: 'Spara utbetalningsuppgifter' }).click();
    await expect(card.getByLabel('Kontonummer')).toHaveAccessibleDescription(/stämmer inte för Handelsbanken/);
    await expect(card.getByLabel('Kontonummer')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'utbetalningsuppgifter med fel');
    await card.getByLabel('Kontonummer').fill('123 456 789');
    await card.getByRole('button', { name: 'Spara utbetalningsuppgifter' }).click();
    await expect(toast(page)).toContainText('Utbetalningsuppgifter sparade');
    await expect(card).toContainText('Handelsbanken 6000, 123 456 789');
    await expect(card).toContainText(`Kontoskolan ${run}`);
    await expectAccessible(page, 'utbetalningsuppgifter sparade');

    // Now the payout is paid to that account, and its PDF says so.
    await openPayouts(page);
    await row.getByRole('button', { name: /Markera som betald/ }).click();
    await expect(dialog).toContainText('Handelsbanken 6000, 123 456 789');
    await expect(dialog).toContainText(`Kontoskolan ${run}`);
    await dialog.getByRole('button', { name: 'Markera som betald' }).click();
    await expect(row.getByText('Betald', { exact: true })).toBeVisible();
    const pdf = await page.request.get(`/api/admin/payouts/${payoutId}/export.pdf`, { headers });
    const pdfPath = testInfo.outputPath('konto.pdf');
    fs.writeFileSync(pdfPath, await pdf.body());
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Mottagarkonto\s+Handelsbanken 6000, 123 456 789/);
    expect(text).toMatch(new RegExp(`Kontohavare\\s+Kontoskolan ${run}`));

    // The teacher sees which account, by its last four digits only.
    await signInQuickly(page, email, ADMIN_PASSWORD);
    await page.goto('/dashboard');
    const teacherCard = page.getByRole('region', { name: 'Utbetalning till klassen' });
    await expect(teacherCard).toContainText(`Provisionen betalas till Bankkonto hos Handelsbanken som slutar på 6789, Kontoskolan ${run}.`);
    await expect(teacherCard).not.toContainText('123 456 789');
    await expectAccessible(page, 'lärarens utbetalningskort');
  });

  test('a sale through the wrong link: the teacher moves it to the pupil who sold it; once paid out, the superadmin moves it by a correction', async ({
    page,
    baseURL,
  }, testInfo) => {
    const run = runId(testInfo);
    const token = await signInQuickly(page, SUPERADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const groupName = `E2E Flytt ${run}`;
    const { groupId, email } = await groupWithAdmin(page, headers, groupName, testInfo);
    const group = (await (await page.request.get(`/api/admin/groups/${groupId}`, { headers })).json()) as { group: { group_code: string } };
    const pupil = async (fullName: string) => {
      const registered = await page.request.post('/api/auth/register-seller', {
        data: {
          full_name: fullName,
          email: uniqueEmail('flytt', testInfo.project.name),
          password: 'elev-losen-123',
          group_code: group.group.group_code,
        },
      });
      const pupilToken = ((await registered.json()) as { token: string }).token;
      const summary = (await (
        await page.request.get('/api/me/summary', { headers: { authorization: `Bearer ${pupilToken}` } })
      ).json()) as {
        user: { id: number };
        personal: { personal_link: string };
      };
      return { userId: summary.user.id, linkCode: summary.personal.personal_link.split('/').pop()! };
    };
    const alva = await pupil(`Alva Berg ${testInfo.project.name}`);
    const elias = await pupil(`Elias Dahl ${testInfo.project.name}`);
    const firstName = `#FL1-${run.replace(' ', '-')}`;
    await orderWithLink(baseURL!, alva.linkCode, firstName, '200.00');

    // The teacher finds the sale among the class's and moves it, saying why.
    await signInQuickly(page, email, ADMIN_PASSWORD);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Visa försäljningarna' }).click();
    const list = page.getByRole('list', { name: 'Klassens försäljningar' });
    const sale = list.getByRole('listitem').filter({ hasText: firstName });
    await expect(sale).toContainText(`Alva Berg ${testInfo.project.name}`);
    await expectAccessible(page, 'klassens försäljningar');
    await sale.getByRole('button', { name: `Flytta ${firstName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Flytta ${firstName}` });
    await dialog.getByRole('button', { name: 'Flytta försäljningen' }).click();
    await expect(dialog.getByLabel('Till eleven')).toHaveAccessibleDescription('Välj eleven som sålde');
    await expect(dialog.getByLabel('Varför flyttas den?')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'flytta utan val');
    await dialog.getByLabel('Till eleven').selectOption({ label: `Elias Dahl ${testInfo.project.name}` });
    await dialog.getByLabel('Varför flyttas den?').fill('Farmor köpte via fel länk');
    await dialog.getByRole('button', { name: 'Flytta försäljningen' }).click();
    await expect(toast(page)).toContainText(`${firstName} räknas nu för Elias Dahl ${testInfo.project.name}.`);
    await expect(dialog).toBeHidden();
    await expect(sale).toContainText(`Elias Dahl ${testInfo.project.name}`);
    // Both families' figures, as the class's leaderboard shows them, have moved.
    const leaderboard = page.getByRole('table', { name: 'Topplista' }).locator('tbody tr');
    const salesOf = (name: string) =>
      leaderboard
        .filter({ hasText: `${name} ${testInfo.project.name}` })
        .locator('td')
        .nth(2);
    await expect(salesOf('Elias Dahl')).toHaveText(/^200\s*kr$/);
    await expect(salesOf('Alva Berg')).toHaveText(/^0\s*kr$/);

    // Paid out, it is no longer the teacher's to move.
    await page.request.put(`/api/admin/groups/${groupId}/payout-account`, {
      headers,
      data: { kind: 'bankgiro', account_number: '9991-2347', holder_name: 'Flyttskolan' },
    });
    const created = await page.request.post('/api/admin/payouts', {
      headers,
      data: { group_id: groupId, from: stockholmToday(), to: stockholmToday(), auto_archive: false },
    });
    const payoutId = ((await created.json()) as { id: number }).id;
    await page.request.patch(`/api/admin/payouts/${payoutId}`, { headers, data: { status: 'paid' } });
    await page.reload();
    await page.getByRole('button', { name: 'Visa försäljningarna' }).click();
    await expect(sale).toContainText('I en avräkning');
    await expect(sale.getByRole('button', { name: /Flytta/ })).toHaveCount(0);

    // The superadmin moves it back from Elias's orders; the next payout carries the correction.
    await signInQuickly(page, SUPERADMIN);
    await page.goto(`/admin/groups/${groupId}/seller/${elias.userId}`);
    await page.getByRole('button', { name: `Flytta ${firstName}` }).click();
    const adminDialog = page.getByRole('dialog', { name: `Flytta ${firstName}` });
    await expect(adminDialog.getByLabel('Till eleven').getByRole('option', { name: `Elias Dahl ${testInfo.project.name}` })).toHaveCount(0);
    await adminDialog.getByLabel('Till eleven').selectOption({ label: `Alva Berg ${testInfo.project.name}` });
    await adminDialog.getByLabel('Varför flyttas den?').fill('Det var Alva ändå');
    await adminDialog.getByRole('button', { name: 'Flytta försäljningen' }).click();
    await expect(toast(page)).toContainText('Nästa avräkning rättar den förra.');
    await expectAccessible(page, 'flyttad av superadmin');
    const next = await page.request.post('/api/admin/payouts', {
      headers,
      data: { group_id: groupId, from: stockholmToday(), to: stockholmToday(), auto_archive: false },
    });
    const nextId = ((await next.json()) as { id: number }).id;
    const pdf = await page.request.get(`/api/admin/payouts/${nextId}/export.pdf`, { headers });
    const pdfPath = testInfo.outputPath('flytt.pdf');
    fs.writeFileSync(pdfPath, await pdf.body());
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain(`Rättelse av avräkning nr ${payoutId}`);
    expect(text).toMatch(/Flyttad\s+försäljning,\s+avgår:/);
    expect(text).toMatch(new RegExp(`Alva Berg ${testInfo.project.name}\\s+0\\s+200,00 kr\\s+50,00 kr`));
  });
});
