import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// E2E_PORT lets two runs (two work trees, or a run beside `npm start`) share one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
/**
 * Browser tests two at a time on two cores (decision 055), each worker against a server and a
 * database of its own on E2E_PORT + its parallel index (e2e/support/fixtures.ts picks it): a
 * test's changes never meet a test running beside it. E2E_WORKERS=1 runs them one at a time.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

/**
 * Debian's chromium-headless-shell: Chromium's own headless build (Blink and V8 as in the browser,
 * without the browser's window and UI layers), which Playwright itself uses for headless runs. It
 * spends about a quarter less CPU per test than the full browser in headless mode (decision 061).
 * Where it is missing, the full browser; CHROMIUM_PATH names another.
 */
const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/**
 * Which viewport each journey runs on (decision 076): the device its people use for it. The specs
 * in neither list run on both, because the two screens differ in what they test: the layout
 * itself, the header (a menu on a phone, links on a desktop: the dashboard, signing out, the
 * keyboard journeys), the admin lists that are cards on a phone (payouts, webhooks, the audit log,
 * the treasurer's), every page's console, the charts.
 * Each browser test runs at least once; the phone's layout of the desk journeys' pages is checked
 * by phone-layout.spec.ts and console.spec.ts.
 */
const PHONE_JOURNEYS = [
  // Pupils, teachers and guardians, on their phones (the app is mobile first).
  'account',
  'auth',
  'buyer-pages',
  'campaign',
  'class-goal',
  'class-list',
  'guardian',
  'install-app',
  'live-figures',
  'mails-and-addresses',
  'notifications',
  'offline',
  'orders',
  'printable-names',
  'privacy-account',
  'public-name',
  'share-kit',
  'toasts',
];
const DESKTOP_JOURNEYS = [
  // The superadmin's and the treasurer's work at a desk, and focus moved by keyboard.
  'admin',
  'focus',
  'privacy-page',
  'treasurers-month',
  'unattributed-orders',
];
const specs = (journeys: string[]) => journeys.map((journey) => `**/${journey}.spec.ts`);

/**
 * Browser tests: Debian's Chromium against the real built server on a fresh PostgreSQL database
 * with the demo data (decision 077), on a phone viewport and a desktop one.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: E2E_WORKERS,
  // One retry in CI: a flaky test is reported as flaky in the list, not hidden; locally every failure shows at once.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    acceptDownloads: true,
    // The service worker precaches the whole app (a megabyte) in every new context, that is in every
    // test, a sixth of the browser step's CPU (decision 078). It is the subject of offline.spec.ts and
    // install-app.spec.ts, which allow it; every other journey is a first visit, as a buyer's is.
    serviceWorkers: 'block',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    },
  },
  projects: [
    // A phone's CSS pixels and touch; drawn at one device pixel per CSS pixel, a quarter of the
    // rasterizing of a real phone's two, which no test looks at (decision 060).
    {
      name: 'phone',
      testIgnore: specs(DESKTOP_JOURNEYS),
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
    },
    { name: 'desktop', testIgnore: specs(PHONE_JOURNEYS), use: { viewport: { width: 1280, height: 900 } } },
  ],
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => ({
    command: 'node --import tsx e2e/support/e2e-server.ts',
    env: { E2E_PORT: String(E2E_PORT + index) },
    url: `http://127.0.0.1:${E2E_PORT + index}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // So that the server stops and its database is dropped (e2e/support/e2e-server.ts).
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
