import fs from 'node:fs';
import { expect, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { pdfQrCodes, pdfText } from '../apps/server/test/pdf-tools';
import { expectAccessible, test, TOKEN_STORAGE_KEY } from './support/fixtures';
import { startOwnPortal, type OwnPortal } from './support/own-portal';

/**
 * Issue 32 points 1–2 on a phone: the page a buyer (often a grandparent) sees before the shop, in
 * every state it has, each checked with axe; its button, which takes the code to the shop and no
 * referrer; the class link; and the teacher's card with the class link, the text for buyers and
 * the poster. A portal of its own on a PostgreSQL database of its own, so that the test can put the
 * class in each state (a campaign ended, a pupil waiting for a guardian) as time and people would.
 */
const SHOP = 'https://butik.example.se';

let portal: OwnPortal | undefined;
let base: string;
let database: pg.Client;

// A buyer's phone: the spec runs on the phone only (playwright.config.ts, decision 076).
test.beforeAll(async () => {
  // A time budget, not a wait: a portal's first start (migrations, the demo) on a busy machine.
  test.setTimeout(120_000);
  portal = await startOwnPortal({ dataDirPrefix: 'sp-kopare-', postgres: true });
  base = portal.base;
  database = new pg.Client({ connectionString: portal.databaseUrl });
  await database.connect();
});

test.afterAll(async () => {
  await database?.end();
  await portal?.stop();
});

const stockholmDay = (days: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date(Date.now() + days * 86_400_000));

const linkCodeOf = async (email: string) =>
  (
    await database.query<{ link_code: string }>(
      `select m.link_code from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
        where u.email = $1 and g.code = 'BJK6B2'`,
      [email],
    )
  ).rows[0]!.link_code;

const setClass = (assignments: string, values: unknown[] = []) =>
  database.query(`update groups set ${assignments} where code = 'BJK6B2'`, values);

/** What the phone shows, kept with the test's results to be looked at. */
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** A buyer's page: its status, its heading, axe, and whether it leads anywhere. */
async function visit(page: Page, path: string, heading: string | RegExp, expected: { status: number; leadsToShop: boolean }) {
  const response = await page.goto(`${base}${path}`);
  expect(response?.status()).toBe(expected.status);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(page.getByRole('link')).toHaveCount(expected.leadsToShop ? 1 : 0);
  await expectAccessible(page, `köparsidan ${path}`);
}

test('the page before the shop in each of its states, on a phone', async ({ page }) => {
  const elsa = await linkCodeOf('elsa@demo.se');
  await setClass(
    `goal_ore = 1000000, goal_purpose = 'lägerskolan i Sälen', goal_ends_on = $1, campaign_starts_on = $2, campaign_ends_on = $3,
     class_greeting = $4`,
    [stockholmDay(40), stockholmDay(-3), stockholmDay(13), 'Tack för att ni stöttar oss!\nVi åker till fjällen i mars.'],
  );
  // The shop is another site: the test answers for it, to see what it is sent.
  await page.route(`${SHOP}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html lang="sv"><title>Butiken</title><h1>Butiken</h1></html>',
    }),
  );

  // Running: whom, the class goal with its bar, the days, the teacher's text, one button.
  await visit(page, `/s/${elsa}`, 'Du stöttar Elsa i Klass 6B Björkskolan', { status: 200, leadsToShop: true });
  await expect(page.getByRole('progressbar', { name: /insamlat av 10 000 kr/ })).toBeVisible();
  await expect(page.getByText('14 dagar kvar – sista dagen är')).toBeVisible();
  await expect(page.getByText('Vi åker till fjällen i mars.')).toBeVisible();
  await shot(page, '1-kopare-pagar');
  const toShop = page.waitForRequest(`${SHOP}/**`);
  await page.getByRole('link', { name: 'Till butiken' }).click();
  const shopRequest = await toShop;
  expect(new URL(shopRequest.url()).searchParams.get('ref')).toBe(elsa);
  expect(await shopRequest.headerValue('referer')).toBeNull();
  await expect(page.getByRole('heading', { name: 'Butiken' })).toBeVisible();

  // Before the campaign, after it, and in an archived group: kindly, and nowhere on.
  await setClass('campaign_starts_on = $1, campaign_ends_on = $2', [stockholmDay(3), stockholmDay(20)]);
  await visit(page, `/s/${elsa}`, /^Försäljningen startar \d+ \p{L}+/u, { status: 200, leadsToShop: false });
  await shot(page, '2-kopare-startar');
  await setClass('campaign_starts_on = $1, campaign_ends_on = $2', [stockholmDay(-20), stockholmDay(-1)]);
  await visit(page, `/s/${elsa}`, 'Försäljningen är avslutad – tack!', { status: 200, leadsToShop: false });
  await shot(page, '3-kopare-avslutad');
  await setClass('campaign_starts_on = null, campaign_ends_on = null');

  // A pupil whose guardian has not approved yet.
  const noah = await linkCodeOf('noah@demo.se');
  await database.query(`update users set guardian_consent = 'pending' where email = 'noah@demo.se'`);
  await visit(page, `/s/${noah}`, 'Länken är inte aktiv än', { status: 200, leadsToShop: false });
  await database.query(`update users set guardian_consent = null where email = 'noah@demo.se'`);

  // An erased pupil's old link, erased by the operator as a request to be forgotten would be.
  const [leaving] = (
    await database.query<{ id: number; email: string }>(
      `select u.id, u.email from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
        where g.code = 'BJK6B2' and m.role = 'seller' and u.email not in ('elsa@demo.se', 'noah@demo.se') order by m.id limit 1`,
    )
  ).rows;
  const oldCode = await linkCodeOf(leaving!.email);
  const login = await page.request.post(`${base}/api/auth/login`, {
    data: { email: 'admin@saljportalen.se', password: portal!.demoPassword() },
  });
  const { token } = (await login.json()) as { token: string };
  const erased = await page.request.post(`${base}/api/admin/users/${leaving!.id}/erase`, { headers: { authorization: `Bearer ${token}` } });
  expect(erased.ok()).toBe(true);
  await visit(page, `/s/${oldCode}`, 'Länken används inte längre', { status: 404, leadsToShop: false });
  await shot(page, '4-kopare-borttagen');

  await visit(page, '/s/FINNSINTE', 'Länken hittades inte', { status: 404, leadsToShop: false });

  // The class link: the class instead of a pupil.
  const { class_link_code: classCode } = (
    await database.query<{ class_link_code: string }>(`select class_link_code from groups where code = 'BJK6B2'`)
  ).rows[0]!;
  await visit(page, `/k/${classCode}`, 'Du stöttar Klass 6B Björkskolan', { status: 200, leadsToShop: true });
  await expect(page.getByRole('link', { name: 'Till butiken' })).toHaveAttribute('href', `${SHOP}/?ref=KLASS-${classCode}`);
  await shot(page, '5-kopare-klasslank');
});

/** A phone of its own, signed in as a returning user is: the token in storage. */
async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const response = await page.request.post(`${base}/api/auth/login`, { data: { email, password: portal!.demoPassword() } });
  const { token } = (await response.json()) as { token: string };
  await page.goto(`${base}/api/health`);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_STORAGE_KEY, token]);
  return page;
}

test('the teacher’s class link, text for the buyers and class poster, on a phone', async ({ page, browser }) => {
  const teacher = await signedIn(browser, 'larare@bjorkskolan.se');
  try {
    await teacher.goto(`${base}/dashboard`);
    const card = teacher.getByRole('region', { name: 'Klassens länk och affisch' });
    const link = card.getByRole('textbox', { name: 'Klasslänk' });
    await expect(link).toHaveValue(/\/k\/[23456789A-Z]{8}$/);
    const classLink = await link.inputValue();

    // A web address is refused at the field; a text is saved and shown to buyers.
    const text = card.getByLabel('Text till köparna');
    await text.fill('Läs mer på www.exempel.se');
    await card.getByRole('button', { name: 'Spara texten' }).click();
    await expect(text).toHaveAccessibleDescription(/får inte innehålla en webbadress/);
    await expect(text).toBeFocused();
    await text.fill('Tack för att ni stöttar 6B! Pengarna går till vår lägerskola.');
    await card.getByRole('button', { name: 'Spara texten' }).click();
    await expect(teacher.getByText('Texten till köparna är sparad')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await expectAccessible(teacher, 'lärarens kort med klasslänken');
    await teacher.screenshot({ path: test.info().outputPath('6-larare-klasslank.png') });

    // The poster: the class, and a QR code that opens the class link.
    const download = teacher.waitForEvent('download');
    await card.getByRole('button', { name: 'Ladda ner affisch (PDF)' }).click();
    const poster = await download;
    expect(poster.suggestedFilename()).toBe('klassaffisch.pdf');
    const pdf = fs.readFileSync((await poster.path())!);
    expect(pdfText(pdf)).toContain('Stötta Klass 6B Björkskolan!');
    expect(pdfQrCodes(pdf)).toEqual([classLink]);

    // The portal's own address is PUBLIC_URL's, which a portal on a port the system gave does not know.
    await page.goto(`${base}/k/${classLink.split('/k/')[1]}`);
    await expect(page.getByText('Tack för att ni stöttar 6B! Pengarna går till vår lägerskola.')).toBeVisible();
  } finally {
    await teacher.context().close();
  }
});
