import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { test as base, expect, type APIRequestContext, type ConsoleMessage, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';

/**
 * This worker's server (playwright.config.ts starts one per worker): E2E_PORT plus the worker's
 * parallel index, which Playwright gives its workers as TEST_PARALLEL_INDEX.
 */
const e2ePort = String(Number(process.env.E2E_PORT ?? 4173) + Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const E2E_DATA_DIR = e2ePort === '4173' ? '.e2e-data' : `.e2e-data-${e2ePort}`;

/**
 * The demo accounts' password: the e2e server generated it when it seeded its fresh data dir and
 * kept it in DATA_DIR/demo-password (apps/server/src/db/demo-password.ts), as on a newcomer's
 * first start. Read when a test needs it, once the server is up.
 */
export const demoPassword = (): string => fs.readFileSync(path.join(E2E_DATA_DIR, 'demo-password'), 'utf8').trim();
export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret';
export const TOKEN_STORAGE_KEY = 'saljportalen.token';

/**
 * The browser's own line for a call that failed: an HTTP answer of 400 or more ('Failed to load
 * resource: the server responded with a status of 403') or no answer ('Failed to load resource:
 * net::ERR_INTERNET_DISCONNECTED'). Journeys provoke refusals and lost networks on purpose, and no
 * script can keep Chromium from writing the line. Which ones a journey without faults may cause,
 * e2e/console.spec.ts holds to the two the spec keeps (the superadmin check and the refresh helper).
 */
export const isFailedCall = (message: ConsoleMessage): boolean =>
  message.type() === 'error' && message.text().startsWith('Failed to load resource: ');

/**
 * Playwright's own warning where it keeps a page from registering the service worker
 * (`serviceWorkers: 'block'` in playwright.config.ts): the harness's line, not the app's.
 */
export const isServiceWorkerBlocked = (message: ConsoleMessage): boolean =>
  message.type() === 'warning' && message.text().startsWith('Service Worker registration blocked by Playwright');

/**
 * Every browser test: no warning, no error and no uncaught exception reaches the browser's
 * console (issue 19). Pages that are not the app's (/api/health, where a test stores a token,
 * and its missing favicon) are not watched.
 */
export const test = base.extend<{ quietConsole: void; accessibleEnd: void }>({
  baseURL: `http://127.0.0.1:${e2ePort}`,
  /**
   * Every browser test: the page as the test leaves it passes axe (expectAccessible), so a state no
   * test checked by hand is checked too (decision 055). Not after a test that failed already (its
   * own failure is the one to read), nor on a page that is not the app's (/api/…, a blank page).
   */
  accessibleEnd: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus || page.isClosed()) return;
      // The test's last step may have started a navigation: the page it leads to is the one to judge.
      for (let attempt = 1; ; attempt++) {
        await page.waitForLoadState();
        const url = new URL(page.url());
        if (!url.protocol.startsWith('http') || url.pathname.startsWith('/api/')) return;
        try {
          await expectAccessible(page, `${url.pathname} där testet slutade`);
          return;
        } catch (error) {
          if (attempt === 3 || !String(error).includes('Execution context was destroyed')) throw error;
        }
      }
    },
    { auto: true },
  ],
  quietConsole: [
    async ({ page }, use) => {
      const noise: string[] = [];
      const onAppPage = () => !new URL(page.url()).pathname.startsWith('/api/');
      page.on('console', (message) => {
        if (
          (message.type() === 'warning' || message.type() === 'error') &&
          !isFailedCall(message) &&
          !isServiceWorkerBlocked(message) &&
          onAppPage()
        )
          noise.push(`${message.type()}: ${message.text()} (${page.url()})`);
      });
      page.on('pageerror', (error) => noise.push(`pageerror: ${error.message} (${page.url()})`));
      await use();
      expect(noise, 'meddelanden i webbläsarens konsol').toEqual([]);
    },
    { auto: true },
  ],
});

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is now (WCAG 2.0–2.2 A and AA) and fails on any serious or
 * critical finding, and on two landmarks of one name (`landmark-unique`). Evaluated through the
 * DevTools protocol, so the page's CSP stays on; once per document, since a test judges one page
 * several times and axe is half a megabyte of script to compile.
 */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  // A page judged already, and not changed since, passes as it did (the end-of-test check after a
  // test's own last one, mostly).
  const { axeLoaded, unchanged } = await page.evaluate(() => ({
    axeLoaded: 'axe' in window,
    unchanged: (window as { unchangedSinceAxe?: boolean }).unchangedSinceAxe === true,
  }));
  if (unchanged) return;
  if (!axeLoaded) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    // A toast fading in or out is half transparent for a moment, and axe measures the contrast
    // of that moment. Judge the page as it settles: two frames, so a toast that has just been
    // drawn has begun its fade-in, then every animation and transition that ends (a spinner does not).
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    await frame();
    const settling = document.getAnimations().filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)));
    await Promise.all(settling.map((animation) => animation.finished.catch(() => undefined)));
    // From here, any change to the page (a node, an attribute, a text) means it has to be judged anew.
    const watched = window as unknown as { unchangedSinceAxe?: boolean; axeWatcher?: MutationObserver };
    watched.axeWatcher ??= new MutationObserver(() => (watched.unchangedSinceAxe = false));
    watched.axeWatcher.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    watched.unchangedSinceAxe = true;
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: { exclude: string[][] },
            options: object,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    // Toasts nobody sees: one on its way out, one not yet drawn, one hidden, and one stacked behind
    // the toast that replaced it (spec §9: one at a time; sonner makes its text transparent).
    const hiddenToasts = ['removed="true"', 'mounted="false"', 'visible="false"', 'front="false"'];
    const context = { exclude: hiddenToasts.map((state) => [`[data-sonner-toast][data-${state}]`]) };
    return axe.run(context, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      // A best practice, not a WCAG rule, and moderate: two landmarks of one name leave a screen
      // reader's landmark list ambiguous (issue 19), so it fails too.
      rules: { 'landmark-unique': { enabled: true } },
      // Only the violations are read: axe then spends nothing on listing what passed.
      resultTypes: ['violations'],
    });
  });
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical' || violation.id === 'landmark-unique',
  );
  expect(
    serious.map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} @ ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    `tillgänglighetsfel på ${label}`,
  ).toEqual([]);
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password = demoPassword()): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Logga in', exact: true }).last().click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs in through the API and stores the token, for tests about other things than signing in. */
export async function signInQuickly(page: Page, email: string, password = demoPassword()): Promise<string> {
  const response = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await storeTokenOutsideApp(page, token);
  return token;
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  link?: string;
}

/**
 * The newest mail to an address in the server's outbox (DATA_DIR/outbox), waiting for it to arrive;
 * with `subject`, the newest with that subject; `dataDir` for a test's server of its own.
 */
export async function latestMailTo(
  address: string,
  { subject, timeoutMs = 10_000, dataDir = E2E_DATA_DIR }: { subject?: string; timeoutMs?: number; dataDir?: string } = {},
): Promise<OutboxMail> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(outbox)) {
      const mails = fs
        .readdirSync(outbox)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')) as OutboxMail)
        .filter((mail) => mail.to.toLowerCase() === address.toLowerCase() && (subject === undefined || mail.subject === subject));
      if (mails.length > 0) return mails[mails.length - 1]!;
    }
    if (Date.now() > deadline) throw new Error(`inget mejl till ${address}${subject ? ` med ämnet ${subject}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A unique address per test run and viewport, so the phone and desktop runs do not collide. */
export const uniqueEmail = (prefix: string, project: string) => `${prefix}.${project}.${Date.now()}@e2e.se`;

/**
 * Signs in through the API on a request context of its own (the `request` fixture), so the page's
 * browser gets neither the token nor the refresh cookie.
 */
export async function apiToken(request: APIRequestContext, email: string, password = demoPassword()): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.ok(), `inloggning som ${email}`).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

/**
 * Puts a token in the browser's storage as an earlier visit would have left it. Written from a
 * page of the same origin that runs none of the app (the health check), so no app page reads,
 * and perhaps drops, it before the next navigation does.
 */
export async function storeTokenOutsideApp(page: Page, token: string): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_STORAGE_KEY, token]);
}

/** The claims of a JWT (its middle part). */
export const tokenClaims = (token: string): Record<string, unknown> & { exp: number } =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown> & { exp: number };

/**
 * A well-formed HS256 JWT with the given claims, signed with a key that is not the server's: the
 * browser reads its exp like any token's, and the server refuses it.
 */
export function forgedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  const signature = crypto.createHmac('sha256', 'inte-serverns-nyckel-inte-serverns-nyckel').update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

/**
 * The first amount in kronor in a text as the web writes one ('15 kr', '1 234 kr', '−25 kr'), in
 * kronor. Only a whole word counts: the base-36 run ids in the tests' group names hold strings such
 * as 'mihx20kr1', whose '0kr' is no amount.
 */
export function kronorIn(text: string): number {
  const amount = text.match(/(?<![\p{L}\p{N}])([-\u2212]?\d[\d \u00a0\u202f]*?)[\s\u00a0\u202f]?kr(?![\p{L}\p{N}])/u);
  if (!amount) throw new Error(`inget belopp i kronor i ${JSON.stringify(text)}`);
  return Number(amount[1]!.replace(/[\s\u00a0\u202f]/g, '').replace('\u2212', '-'));
}

/** The toasts' live region (sonner's, named 'Meddelanden' and its keyboard shortcut). */
export const toastRegion = (page: Page) => page.getByRole('region', { name: /^Meddelanden/ });

/** axe measures colours mid-animation: wait until every toast has faded fully in. */
export async function toastsSettled(page: Page): Promise<void> {
  const shown = page.locator('[data-sonner-toast][data-removed="false"][data-visible="true"]');
  for (let index = 0; index < (await shown.count()); index++) await expect(shown.nth(index)).toHaveCSS('opacity', '1');
}

/**
 * Cookies for one API path only that together take the request's headers past the 16 KB Node's
 * HTTP server accepts: the real server then refuses that call (431 Request Header Fields Too
 * Large), a genuine failure that is neither 401 nor 403 and leaves every other call alone.
 * `removeOversizedCookies` ends it.
 */
export async function oversizeRequestsTo(page: Page, apiPath: string): Promise<void> {
  // The page is on the app already, so its address names the host the cookies belong to.
  const host = new URL(page.url()).hostname;
  await page
    .context()
    .addCookies(
      Array.from({ length: 5 }, (_, index) => ({ name: `e2e-stor-${index}`, value: 'x'.repeat(4000), domain: host, path: apiPath })),
    );
}

export async function removeOversizedCookies(page: Page): Promise<void> {
  await page.context().clearCookies({ name: /^e2e-stor-\d$/ });
}

/**
 * The records of the CSV export's dialect (`;` between fields, `"` around those that need it),
 * header row first. `recordDelimiter` '\r\n' accepts no other line ending between records.
 */
export const csvRecords = (text: string, recordDelimiter?: '\r\n'): string[][] =>
  parse(text, { delimiter: ';', record_delimiter: recordDelimiter, relax_column_count: true }) as string[][];
