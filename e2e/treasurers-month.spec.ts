import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { sendShopifyWebhook, swedishOrder, swedishRefund } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, kronorIn, test, TOKEN_STORAGE_KEY } from './support/fixtures';
import { startOwnPortal, type OwnPortal } from './support/own-portal';

/**
 * A treasurer's month under a 14-day holding period (issue 30): orders, a sale moved to the right
 * pupil, a refund inside the holding period, a payout of the payable days, then a cancellation
 * after it and a late order, settled by the next payout as a deduction and a correction; its PDF
 * read back, and every screen's figures equal. The portal here is a server of its own, started with
 * PAYOUT_HOLD_DAYS=14 on a port the system gives it, with the demo data.
 */
const SECRET = E2E_WEBHOOK_SECRET;
const HOLD = 14;
const ADMIN_PASSWORD = 'kassor-losen-123';

let portal: OwnPortal | undefined;
let base: string;

// One portal of its own, on PostgreSQL as the other browser tests' (decision 078); the month runs
// on the desktop only (playwright.config.ts, decision 076).
test.beforeAll(async () => {
  // A time budget, not a wait: a portal's first start (migrations, the demo) on a busy machine.
  test.setTimeout(120_000);
  portal = await startOwnPortal({ dataDirPrefix: 'sp-kassor-', postgres: true, env: { PAYOUT_HOLD_DAYS: String(HOLD) } });
  base = portal.base;
});

test.afterAll(async () => {
  await portal?.stop();
});

const stockholm = (date: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(date);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const demoPassword = () => portal!.demoPassword();
let nextId = 8_800_000_000_000 + (Date.now() % 1_000_000) * 100;

async function signIn(page: Page, email: string, password: string) {
  const response = await page.request.post(`${base}/api/auth/login`, { data: { email, password } });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await page.goto(`${base}/api/health`);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_STORAGE_KEY, token]);
  return { authorization: `Bearer ${token}` };
}

async function order(linkCode: string, placed: Date, price: string) {
  const id = nextId++;
  const lineId = nextId++;
  const payload = swedishOrder({
    id,
    name: `#M${id % 100_000}`,
    refCode: linkCode,
    createdAt: placed.toISOString(),
    lineItems: [{ id: lineId, productId: null, title: 'Bivaxdukar 3-pack', price, quantity: 1 }],
  });
  expect((await sendShopifyWebhook(base, 'orders/create', payload, { secret: SECRET })).status).toBe(200);
  return { id, lineId, name: payload.name as string, payload };
}

test("a treasurer's month: a moved sale, a refund while it waits, a payout, then a correction and a deduction, every screen agreeing", async ({
  page,
}, testInfo) => {
  // A time budget, not a wait: a whole month of steps on a busy two-core machine.
  test.setTimeout(180_000);
  const admin = await signIn(page, 'admin@saljportalen.se', demoPassword());
  const groupName = `Kassörsklassen ${Date.now().toString(36)}`;
  const teacherEmail = `kassor-${Date.now()}@e2e.se`;
  const created = await page.request.post(`${base}/api/admin/groups/create`, {
    headers: admin,
    data: { group_name: groupName, admin: { email: teacherEmail, password: ADMIN_PASSWORD, full_name: 'Karin Kassör' } },
  });
  const groupId = ((await created.json()) as { group: { id: number; group_code: string } }).group.id;
  const groupCode = (
    (await (await page.request.get(`${base}/api/admin/groups/${groupId}`, { headers: admin })).json()) as { group: { group_code: string } }
  ).group.group_code;
  await page.request.put(`${base}/api/admin/groups/${groupId}/payout-account`, {
    headers: admin,
    data: { kind: 'bankgiro', account_number: '9991-2347', holder_name: 'Kassörsskolan' },
  });
  const pupil = async (fullName: string) => {
    const registered = await page.request.post(`${base}/api/auth/register-seller`, {
      data: {
        full_name: fullName,
        email: `${fullName.split(' ')[0]!.toLowerCase()}-${Date.now()}@e2e.se`,
        password: 'elev-losen-123',
        group_code: groupCode,
      },
    });
    const { token } = (await registered.json()) as { token: string };
    const summary = (await (
      await page.request.get(`${base}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      personal: { personal_link: string };
    };
    return summary.personal.personal_link.split('/').pop()!;
  };
  const alva = await pupil('Alva Kassör');
  const elias = await pupil('Elias Kassör');

  // The month's orders: two old enough to be paid, one bought through Elias's link that was Alva's,
  // and one from three days ago, returned within the holding period.
  const first = await order(alva, daysAgo(30), '400.00');
  const wrongLink = await order(elias, daysAgo(25), '200.00');
  const young = await order(alva, daysAgo(3), '120.00');
  const refund = swedishRefund({
    id: nextId++,
    orderId: young.id,
    processedAt: daysAgo(2).toISOString(),
    lines: [{ id: nextId++, lineItemId: young.lineId, quantity: 1 }],
  });
  expect((await sendShopifyWebhook(base, 'refunds/create', refund, { secret: SECRET })).status).toBe(200);

  // The teacher moves the sale to Alva.
  await signIn(page, teacherEmail, ADMIN_PASSWORD);
  await page.goto(`${base}/dashboard`);
  await page.getByRole('button', { name: 'Visa försäljningarna' }).click();
  await page.getByRole('button', { name: `Flytta ${wrongLink.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Flytta ${wrongLink.name}` });
  await dialog.getByLabel('Till eleven').selectOption({ label: 'Alva Kassör' });
  await dialog.getByLabel('Varför flyttas den?').fill('Mormor köpte via Elias länk');
  await dialog.getByRole('button', { name: 'Flytta försäljningen' }).click();
  await expect(dialog).toBeHidden();

  // The superadmin pays the payable days: the form refuses a period into the holding period.
  await signIn(page, 'admin@saljportalen.se', demoPassword());
  await page.goto(`${base}/admin/payouts`);
  const form = page.getByRole('form', { name: 'Skapa ny avräkning' });
  await form.getByRole('combobox', { name: 'Grupp', exact: true }).fill(groupName);
  await form.getByRole('option', { name: groupName, exact: true }).click();
  await form.getByLabel('Från').fill(stockholm(daysAgo(60)));
  await form.getByLabel('Till').fill(stockholm(new Date()));
  await form.getByLabel('Arkivera gruppen efter avräkning').uncheck();
  await form.getByRole('button', { name: 'Skapa avräkning' }).click();
  const lastPayable = stockholm(daysAgo(HOLD));
  await expect(form.getByLabel('Till')).toHaveAccessibleDescription(new RegExp(`Till-datum kan vara högst ${lastPayable}`));
  await form.getByLabel('Till').fill(lastPayable);
  const firstCreated = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
  );
  await form.getByRole('button', { name: 'Skapa avräkning' }).click();
  const payoutOne = (await (await firstCreated).json()) as { id: number; amount: number };
  // 400 kr and 200 kr at 25 %; the returned order waited and nets to nothing.
  expect(payoutOne.amount).toBe(150);
  const row = page.getByRole('row').filter({ has: page.getByText(`Nr ${payoutOne.id}`, { exact: true }) });
  await row.getByRole('button', { name: /Markera som betald/ }).click();
  await page.getByRole('dialog', { name: 'Markera som betald?' }).getByRole('button', { name: 'Markera som betald' }).click();
  await expect(row.getByText('Betald', { exact: true })).toBeVisible();

  // After the payout: the first order is cancelled, and an order from a paid day arrives late.
  const cancelledAt = new Date().toISOString();
  expect(
    (
      await sendShopifyWebhook(
        base,
        'orders/cancelled',
        { ...first.payload, cancelled_at: cancelledAt, cancel_reason: 'customer', updated_at: cancelledAt, financial_status: 'voided' },
        { secret: SECRET },
      )
    ).status,
  ).toBe(200);
  await order(elias, daysAgo(20), '80.00');

  // 'Att reglera' settles both in one payout: a correction of nr 1 and a deduction from it.
  await page.reload();
  const item = page.getByRole('region', { name: 'Att reglera' }).getByRole('listitem').filter({ hasText: groupName });
  await expect(item).toContainText('Att få tillbaka 80 kr');
  await item.getByRole('button', { name: `Avräkna ${groupName}` }).click();
  const secondCreated = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
  );
  await form.getByRole('button', { name: 'Skapa avräkning' }).click();
  const payoutTwo = (await (await secondCreated).json()) as { id: number; amount: number };
  expect(payoutTwo.amount).toBe(-80);
  await expectAccessible(page, 'kassörens månad');
  const pdf = await page.request.get(`${base}/api/admin/payouts/${payoutTwo.id}/export.pdf`, { headers: admin });
  const pdfPath = testInfo.outputPath('manad.pdf');
  fs.writeFileSync(pdfPath, await pdf.body());
  const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toMatch(new RegExp(`Rättelse av avräkning nr ${payoutOne.id}\\s+1 orderrad, 20,00 kr i provision`));
  expect(text).toMatch(new RegExp(`Avdrag från avräkning nr ${payoutOne.id}\\s+1 orderrad, -100,00 kr i provision`));
  expect(text).toMatch(/Att få tillbaka\s+80,00 kr/);
  expect(text).toMatch(/Mottagarkonto\s+Bankgiro 9991-2347/);

  // Every screen's figures: the payouts, the admin's group page, the teacher's and Alva's dashboards.
  const paidOut = payoutOne.amount + payoutTwo.amount;
  await page.goto(`${base}/admin/groups/${groupId}`);
  const commissionCard = page.getByText('Total provision', { exact: true }).locator('..');
  expect(kronorIn(await commissionCard.innerText())).toBe(paidOut);
  await signIn(page, teacherEmail, ADMIN_PASSWORD);
  await page.goto(`${base}/dashboard`);
  const classCommission = page.getByText('Total intjäning', { exact: true }).locator('..');
  expect(kronorIn(await classCommission.innerText())).toBe(paidOut);
  const board = page.getByRole('table', { name: 'Topplista' }).locator('tbody tr');
  // Alva: the moved 200 kr is hers (50 kr); her cancelled 400 kr is not. Elias: the late 80 kr (20 kr).
  await expect(board.filter({ hasText: 'Alva Kassör' }).locator('td').nth(3)).toHaveText(/^50\s*kr$/);
  await expect(board.filter({ hasText: 'Elias Kassör' }).locator('td').nth(3)).toHaveText(/^20\s*kr$/);
  await expectAccessible(page, 'lärarens siffror efter månaden');
});
