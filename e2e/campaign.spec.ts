import { execFileSync } from 'node:child_process';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, kronorIn, latestMailTo, test, TOKEN_STORAGE_KEY } from './support/fixtures';
import { startOwnPortal, type OwnPortal } from './support/own-portal';

/**
 * A teacher's whole term on a phone (issue 31): a class list pasted and its sign-in slips printed,
 * the campaign's days set, a guardian approving from the invitation and choosing the pupil's
 * password, the pupil signing in with the username and seeing the countdown, her link opening the
 * shop and a sale arriving; the campaign ends, the link says so, the teacher writes what the money
 * became (mailed to the guardian) and the pupil reads it, the superadmin settles the campaign with
 * one click, and the teacher starts next term with the pupils who stay. The portal is a server of
 * its own on a PostgreSQL database of its own, so that the test can let the campaign end (its days
 * moved into the past, as time would): the demo data, a port the system gives. The class list's
 * every case (refused rows, the slip's one-time code) is e2e/class-list.spec.ts's.
 */
let portal: OwnPortal | undefined;
let base: string;
let dataDir: string;
let databaseUrl: string;

// The term runs on the phone only (playwright.config.ts, decision 076).
test.beforeAll(async () => {
  // A time budget, not a wait: a portal's first start (migrations, the demo) on a busy machine.
  test.setTimeout(120_000);
  portal = await startOwnPortal({ dataDirPrefix: 'sp-kampanj-', postgres: true });
  ({ base, dataDir } = portal);
  databaseUrl = portal.databaseUrl!;
});

test.afterAll(async () => {
  await portal?.stop();
});

const stockholmDay = (days: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date(Date.now() + days * 86_400_000));

/** A phone of its own, signed in as nobody. */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  return context.newPage();
}

/** A page of its own for each person, signed in as a returning user is: the token in storage. */
async function pageOf(browser: Browser, email: string): Promise<Page> {
  const page = await phone(browser);
  const response = await page.request.post(`${base}/api/auth/login`, { data: { email, password: portal!.demoPassword() } });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await page.goto(`${base}/api/health`);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_STORAGE_KEY, token]);
  return page;
}

/** A figure's value, by the label it is read out with. */
const stat = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

/** What the phone's screen shows with `part` scrolled into it, kept with the test's results to be looked at. */
async function shot(page: Page, name: string, part?: Locator) {
  await part?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test("a class's campaign from its days to next term, on a phone", async ({ page, browser }) => {
  // A time budget, not a wait: a whole term of steps on a busy two-core machine.
  test.setTimeout(180_000);
  const teacher = await pageOf(browser, 'larare@bjorkskolan.se');
  // Every page's live stream is closed with its context at the end, so the server can stop at once.
  try {
    await term(teacher, browser);
  } finally {
    await Promise.all(
      browser
        .contexts()
        .filter((context) => context !== page.context())
        .map((context) => context.close()),
    );
  }
  await page.goto(`${base}/api/health`);
});

async function term(teacher: Page, browser: Browser) {
  // 1. The class list: Idun with her guardian's address, Tore without one (he gets a slip).
  const guardian = `idun.foralder.${Date.now()}@e2e.se`;
  await teacher.goto(`${base}/dashboard`);
  const classList = teacher.getByRole('region', { name: 'Lägg till elever från klasslista' });
  await classList.getByLabel('Klasslista').fill(`Idun Öberg;${guardian}\nTore Åkesson;`);
  await classList.getByRole('button', { name: 'Förhandsgranska' }).click();
  await expect(classList.getByRole('region', { name: 'Förhandsgranskning av klasslistan' })).toContainText('Idun Öberg');
  await shot(teacher, '1-klasslista-forhandsgranskning', classList);
  await classList.getByRole('button', { name: 'Spara klasslistan' }).click();
  const outcome = classList.getByRole('region', { name: 'Resultat av klasslistan' });
  await expect(classList.getByText('2 elever tillagda')).toBeVisible();
  const idun = (
    await outcome
      .getByRole('row', { name: /Idun Öberg/ })
      .getByRole('cell')
      .last()
      .innerText()
  ).trim();
  expect(idun).toMatch(/^idun\.ob\d*$/);
  await expectAccessible(teacher, 'klasslistans resultat');
  const downloading = teacher.waitForEvent('download');
  await classList.getByRole('button', { name: 'Skriv ut inloggningslappar' }).click();
  const slips = execFileSync('/usr/bin/pdftotext', [await (await downloading).path(), '-'], { encoding: 'utf8' });
  expect(slips).toContain('Tore Åkesson');
  expect(slips).toMatch(/Engångskod: [A-Z0-9]{4}-[A-Z0-9]{4}/);

  // 2. The teacher sets the campaign's days: from today, two weeks.
  await teacher.getByText('Klassens mål och topplista').click();
  const campaignForm = teacher.getByRole('form', { name: 'Försäljningsperiod' });
  await campaignForm.getByLabel('Första försäljningsdag').fill(stockholmDay(0));
  await campaignForm.getByLabel('Sista försäljningsdag').fill(stockholmDay(-1));
  await campaignForm.getByRole('button', { name: /perioden/ }).click();
  await expect(campaignForm.getByLabel('Sista försäljningsdag')).toHaveAccessibleDescription('Slutdatumet kan inte vara före startdatumet');
  await expect(campaignForm.getByLabel('Sista försäljningsdag')).toBeFocused();
  await campaignForm.getByLabel('Sista försäljningsdag').fill(stockholmDay(13));
  await campaignForm.getByRole('button', { name: /perioden/ }).click();
  await expect(teacher.getByText('Försäljningsperioden är sparad')).toBeVisible();
  await expect(teacher.getByRole('status').filter({ hasText: '14 dagar kvar' })).toBeVisible();
  await expectAccessible(teacher, 'lärarens översikt med försäljningsperiod');
  await shot(teacher, '2-larare-period', campaignForm);

  // 3. Idun's guardian approves from the invitation, and chooses her password.
  const approver = await phone(browser);
  const invitation = await latestMailTo(guardian, { dataDir });
  await approver.goto(invitation.link!.replace(/^https?:\/\/[^/]+/, base));
  await expect(approver.getByLabel('Barnets användarnamn')).toHaveValue(idun);
  await approver.getByLabel('Ditt namn').fill('Olle Öberg');
  await approver.getByLabel('Välj lösenord').fill('olles-losen-1');
  await approver.getByLabel('Välj barnets lösenord').fill('iduns-losen-1');
  await approver.getByRole('button', { name: 'Godkänn och skapa konto' }).click();
  await expect(approver.getByRole('heading', { name: 'Idun Öberg' })).toBeVisible();

  // 4. Idun signs in with her username, and sees the countdown; her link leads to the shop.
  const pupil = await phone(browser);
  await pupil.goto(`${base}/login`);
  await pupil.getByLabel('E-post eller användarnamn').fill(idun);
  await pupil.getByLabel('Lösenord', { exact: true }).fill('iduns-losen-1');
  await pupil.getByRole('button', { name: 'Logga in', exact: true }).last().click();
  await expect(pupil.getByRole('heading', { level: 1, name: 'Hej, Idun!' })).toBeVisible();
  await expect(pupil.getByRole('status').filter({ hasText: '14 dagar kvar' })).toBeVisible();
  const link = (await pupil.getByRole('textbox', { name: 'Länk' }).inputValue()).trim();
  const code = link.split('/').pop()!;
  const open = await pupil.request.get(`${base}/s/${code}`, { maxRedirects: 0 });
  expect(open.status()).toBe(200);
  expect(await open.text()).toContain(`href="https://butik.example.se/?ref=${code}"`);
  await expectAccessible(pupil, 'elevens översikt med nedräkning');
  await shot(pupil, '3-elev-nedrakning');

  // 5. A sale arrives through the link, and the pupil's figures grow with it.
  const salesStat = stat(pupil, 'Din försäljning');
  const before = kronorIn(await salesStat.innerText());
  const id = 9_100_000_000_000 + (Date.now() % 1_000_000);
  const sale = swedishOrder({
    id,
    name: `#K${id % 100_000}`,
    refCode: code,
    lineItems: [{ id: id + 1, productId: null, title: 'Bivaxdukar 3-pack', price: '149.00', quantity: 2 }],
  });
  expect((await sendShopifyWebhook(base, 'orders/create', sale, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);
  await expect.poll(async () => kronorIn(await salesStat.innerText())).toBe(before + 298);

  // 6. The campaign ends: its days are moved into the past, as time would move them.
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  await database.query(`update groups set campaign_starts_on = $1, campaign_ends_on = $2 where code = 'BJK6B2'`, [
    stockholmDay(-14),
    stockholmDay(-1),
  ]);
  await database.end();
  await pupil.goto(`${base}/s/${code}`);
  await expect(pupil.getByRole('heading', { level: 1 })).toHaveText('Försäljningen är avslutad – tack!');
  await shot(pupil, '4-lanken-efter-slutet');

  // 7. The teacher writes what the money became; Idun's guardian gets it by mail.
  await teacher.reload();
  const endCard = teacher.getByRole('region', { name: 'Försäljningen är slut' });
  await expect(endCard).toBeVisible();
  const note = endCard.getByLabel('Text till elever och vårdnadshavare');
  await endCard.getByRole('button', { name: 'Spara och mejla vårdnadshavarna' }).click();
  await expect(note).toHaveAccessibleDescription(/Skriv vad pengarna blev/);
  await note.fill('Tack alla!\n\nVi åkte till Kolmården i maj, och pengarna räckte till bussen och entrén.');
  await endCard.getByRole('button', { name: 'Spara och mejla vårdnadshavarna' }).click();
  await expect(teacher.getByText('Sparat och mejlat till 1 vårdnadshavare')).toBeVisible();
  const money = await latestMailTo(guardian, { dataDir, subject: 'Vad pengarna blev: Klass 6B Björkskolan' });
  expect(money.text).toContain('Vi åkte till Kolmården i maj');
  await expect(note).toHaveValue('Tack alla!\n\nVi åkte till Kolmården i maj, och pengarna räckte till bussen och entrén.');
  await expectAccessible(teacher, 'lärarens kort när försäljningen är slut');
  await shot(teacher, '5-larare-slut', endCard);

  // 8. Idun reads it on her dashboard.
  await pupil.goto(`${base}/dashboard`);
  const closingNote = pupil.getByRole('region', { name: 'Vad pengarna blev' });
  await expect(closingNote).toContainText('Vi åkte till Kolmården i maj');
  await expect(pupil.getByRole('status').filter({ hasText: 'Försäljningen är avslutad' })).toBeVisible();
  await expectAccessible(pupil, 'elevens översikt efter slutet');
  await shot(pupil, '6-elev-vad-pengarna-blev', closingNote);

  // 9. The superadmin settles the ended campaign with one click.
  const admin = await pageOf(browser, 'admin@saljportalen.se');
  await admin.goto(`${base}/admin`);
  const toSettle = admin.getByRole('region', { name: 'Att avräkna' });
  await expect(toSettle).toContainText('Klass 6B Björkskolan');
  await expectAccessible(admin, 'översikten med en avslutad försäljning');
  await shot(admin, '7-admin-att-avrakna', toSettle);
  await toSettle.getByRole('button', { name: 'Skapa avräkning för Klass 6B Björkskolan' }).click();
  await expect(admin.getByText('Avräkningen för Klass 6B Björkskolan är skapad')).toBeVisible();
  await expect(toSettle).toContainText('Inga avslutade försäljningar väntar på avräkning.');

  // 10. Next term: a new group with the pupils who stay; Noah moves school.
  const nextTerm = endCard.getByRole('form', { name: 'Nästa termin' });
  await nextTerm.getByRole('checkbox', { name: /^Noah / }).uncheck();
  await nextTerm.getByRole('button', { name: 'Skapa nästa termins grupp' }).click();
  await expect(nextTerm.getByLabel('Den nya gruppens namn')).toHaveAccessibleDescription('Ange ett namn på den nya gruppen');
  await nextTerm.getByLabel('Den nya gruppens namn').fill('Klass 7B Björkskolan');
  await shot(teacher, '8-nasta-termin', nextTerm);
  await nextTerm.getByRole('button', { name: 'Skapa nästa termins grupp' }).click();
  await expect(
    teacher.getByText(/Klass 7B Björkskolan är skapad med gruppkod [A-Z0-9]{6}\. Klass 6B Björkskolan är arkiverad\./),
  ).toBeVisible();
  await expect(teacher.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(teacher.locator('#main').getByText('Klass 7B Björkskolan', { exact: true })).toBeVisible();
  await expect(stat(teacher, 'Din försäljning')).toHaveText('0\u00a0kr');
  await shot(teacher, '9-larare-nasta-termin');
}
