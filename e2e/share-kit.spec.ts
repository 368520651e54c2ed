import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { formatCampaignDay, stockholmToday, type TGroupTotalsResponse, type TMeSummaryResponse } from '@saljportalen/contract';
import { apiToken, expectAccessible, signInQuickly, toastRegion, toastsSettled } from './support/fixtures';

/**
 * Issue 32 point 4, the share kit in the personal link card, as Noah of Klass 6B (the demo's
 * campaign runs there): ready texts with the class goal and the last day, copied and handed to
 * the SMS, e-mail and WhatsApp apps, a printable fridge note, and a square PNG whose QR code a
 * phone reads as the personal link. The class goal is set for the test and taken away after it.
 */

const PURPOSE = 'Klassresa till Liseberg';

function dayFromToday(days: number): string {
  const [year, month, day] = stockholmToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

async function apiGet<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path} svarade ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

async function setClassGoal(page: Page, amount: number | null): Promise<void> {
  const token = await apiToken(page.request, 'larare@bjorkskolan.se');
  const headers = { authorization: `Bearer ${token}` };
  const summary = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
  const data = amount === null ? { amount: null } : { amount, purpose: PURPOSE, ends_on: dayFromToday(30) };
  const response = await page.request.post('/api/group/goal', { headers, data: { group_id: summary.group_hint!.id, ...data } });
  expect(response.ok()).toBe(true);
}

/** A PNG's width and height, from its IHDR chunk (the first, right after the 8-byte signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const qrCodesIn = (file: string): string[] =>
  execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file], {
    encoding: 'utf8',
    // zbar complains on stderr when there is no D-Bus; only its findings matter.
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .split('\n')
    .filter(Boolean);

const openKit = async (page: Page) => {
  // By keyboard, as the disclosure is reached: focus its summary and press Enter.
  const summary = page.getByText('Färdiga texter, lapp och bild att dela');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Text för SMS')).toBeVisible();
};

test.afterEach(async ({ page }) => {
  await setClassGoal(page, null);
});

test('the share kit: texts with the class goal and last day, copied and sent by SMS, e-mail and WhatsApp, a note and a PNG with the link’s QR code', async ({
  page,
  context,
}) => {
  // A time budget, not a wait: every text, the note and the picture in one journey on a busy machine.
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The print dialog and the share sheet are the browser's own (Debian's headless Chromium has no
  // share sheet): recorded instead of opened.
  await page.addInitScript(() => {
    window.print = () => Object.assign(window, { printed: document.documentElement.dataset.printing ?? 'inget' });
    const shared: ShareData[] = [];
    Object.assign(window, { sharedData: shared });
    Object.defineProperty(navigator, 'share', { value: async (data: ShareData) => void shared.push(data) });
  });
  await setClassGoal(page, 100_000);
  const token = await signInQuickly(page, 'noah@demo.se');
  const { personal, user } = await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary');
  const totals = await apiGet<TGroupTotalsResponse>(page, token, '/api/group/totals');
  const link = personal.personal_link!;
  const lastDay = formatCampaignDay(totals.campaign!.ends_on, stockholmToday());
  await page.goto('/dashboard');
  await openKit(page);

  // The ready texts: the pupil's voice, the class goal, the last day and the link; no amount of the pupil's own.
  const sms = page.getByLabel('Text för SMS');
  await expect(sms).toHaveValue(new RegExp(`Vi samlar till: ${PURPOSE}\\. Målet är 100\u00a0000\u00a0kr\\.`));
  await expect(sms).toHaveValue(new RegExp(`Sista dagen att handla är ${lastDay}\\.`));
  await expect(sms).toHaveValue(new RegExp(`${link}\\nTack för ditt stöd! /${user.public_seller_name}$`));

  // Edited before it is sent: the app link carries the edited text.
  await sms.fill(`${await sms.inputValue()} Kram!`);
  const smsHref = await page.getByRole('link', { name: 'Öppna i SMS' }).getAttribute('href');
  expect(smsHref!.startsWith('sms:?&body=')).toBe(true);
  const smsBody = decodeURIComponent(smsHref!.slice('sms:?&body='.length));
  expect(smsBody).toContain(link);
  expect(smsBody.endsWith('Kram!')).toBe(true);

  await page.getByRole('button', { name: 'Kopiera SMS-texten' }).click();
  await expect(toastRegion(page).getByText('Texten är kopierad')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(smsBody);

  // The share sheet gets the edited text too.
  await page.getByRole('button', { name: 'Dela SMS-texten' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { sharedData: ShareData[] }).sharedData.map((data) => data.text)))
    .toEqual([smsBody]);

  const whatsapp = await page.getByRole('link', { name: /Öppna i WhatsApp/ }).getAttribute('href');
  expect(whatsapp!.startsWith('https://wa.me/?text=')).toBe(true);
  expect(new URL(whatsapp!).searchParams.get('text')).toContain(link);

  const mailto = await page.getByRole('link', { name: 'Öppna i e-post' }).getAttribute('href');
  expect(mailto!.startsWith('mailto:?subject=')).toBe(true);
  const mail = new URLSearchParams(mailto!.slice('mailto:?'.length));
  expect(mail.get('subject')).toBe(`Stöd vår insamling till ${PURPOSE}`);
  expect(mail.get('body')).toContain(`\n${link}\n`);

  // The fridge note: its QR code on screen, and printed alone.
  await expect(page.getByLabel('Lappens text')).toHaveValue(/Skanna koden med mobilens kamera/);
  await expect(page.getByRole('img', { name: `QR-kod till ${link}` })).toBeVisible();
  await page.getByRole('button', { name: 'Skriv ut lappen' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed?: string }).printed)).toBe('note');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.print-note')).toBeVisible();
  await expect(page.locator('.print-note h1')).toHaveText(`Handla via ${user.public_seller_name}s länk`);
  await expect(page.locator('#root')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => delete document.documentElement.dataset.printing);

  // The square picture: a 1080 × 1080 PNG whose QR code reads as the personal link.
  await expect(page.getByRole('img', { name: new RegExp(`^Vi samlar till\\. ${PURPOSE}\\. Mål: 100`) })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Ladda ner bilden (PNG)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('dela-insamlingen.png');
  const file = await download.path();
  expect(pngSize(readFileSync(file))).toEqual({ width: 1080, height: 1080 });
  expect(qrCodesIn(file)).toEqual([link]);
  await expect(toastRegion(page).getByText('Bilden är nedladdad')).toBeVisible();

  await toastsSettled(page);
  await expectAccessible(page, '/dashboard med delningspaketet öppet');
});

test('before the campaign has started, the card says the link does not sell yet instead of offering the kit', async ({ page }) => {
  const token = await signInQuickly(page, 'noah@demo.se');
  const { campaign } = await apiGet<TGroupTotalsResponse>(page, token, '/api/group/totals');
  // The teacher moves the class's campaign three days ahead, and back after the test.
  const teacher = { authorization: `Bearer ${await apiToken(page.request, 'larare@bjorkskolan.se')}` };
  const groupId = (await apiGet<TMeSummaryResponse>(page, token, '/api/me/summary')).group_hint!.id;
  const setCampaign = async (startsOn: string, endsOn: string) =>
    expect(
      (
        await page.request.post('/api/group/campaign', {
          headers: teacher,
          data: { group_id: groupId, starts_on: startsOn, ends_on: endsOn },
        })
      ).ok(),
    ).toBe(true);
  const startsOn = dayFromToday(3);
  await setCampaign(startsOn, dayFromToday(20));
  try {
    await page.goto('/dashboard');
    await expect(page.getByText('Försäljningen har inte startat än')).toBeVisible();
    await expect(page.getByText(`Försäljningen startar ${formatCampaignDay(startsOn, stockholmToday())}`).first()).toBeVisible();
    await expect(page.getByText('Färdiga texter, lapp och bild att dela')).toHaveCount(0);
  } finally {
    await setCampaign(campaign!.starts_on, campaign!.ends_on);
  }
});
