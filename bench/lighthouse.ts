/**
 * Lighthouse's mobile scores (its default: a mid-range phone on slow 4G, simulated) for /login and
 * for /dashboard signed in, with Debian's Chromium. Each run gets a fresh browser profile, so
 * nothing is cached. For the dashboard the seller's access token is put in localStorage first,
 * from a same-origin address that loads none of the app (/api/health), and Lighthouse is told
 * not to clear storage (`disableStorageReset`): the way Lighthouse documents for a signed-in page.
 * BENCH_LIGHTHOUSE_REPORTS=dir keeps every run's full JSON report there (long tasks, bootup time per
 * script, the LCP element and its phases), to see where a score's time goes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';

/** Debian's Chromium, or its headless shell where only that is installed (as playwright.config.ts). */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/bin/chromium-headless-shell');
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS ? path.resolve(process.env.BENCH_LIGHTHOUSE_REPORTS) : undefined;
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  /** Measured only when asked for every category (`allCategories`); NaN otherwise. */
  bestPractices: number;
  seo: number;
  /** Every run's performance score, for the spread. */
  performanceRuns: number[];
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; speedIndex: number };
  /** Same-origin scripts and style sheets the page loaded (paths). */
  loaded: string[];
}

async function withChromium<T>(work: (port: number) => Promise<T>): Promise<T> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'));
  const browser = spawn(CHROMIUM, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      browser.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
        if (match) resolve(Number(match[1]));
      });
      browser.once('exit', (code) => reject(new Error(`Chromium avslutades (kod ${code}): ${seen.slice(-500)}`)));
    });
    return await work(port);
  } finally {
    const exited = new Promise((resolve) => browser.once('exit', resolve));
    browser.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (browser.exitCode === null) browser.kill('SIGKILL');
    // Chromium's helper processes may still write to the profile after the browser is gone: rm
    // tries again a few times, and a temporary profile left behind must not cost the run.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
    } catch (error) {
      console.warn(`  (kunde inte ta bort ${profile}: ${(error as Error).message})`);
    }
  }
}

async function seedLocalStorage(port: number, origin: string, values: Record<string, string>) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(`${origin}/api/health`);
  await page.evaluate((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, values);
  await page.close();
  // Only the connection closes; the browser stays for Lighthouse.
  await browser.close();
}

function keepReport(lhr: { fetchTime: string }, url: string) {
  fs.mkdirSync(REPORTS_DIR!, { recursive: true });
  const page = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'root';
  const file = path.join(REPORTS_DIR!, `${page}-${lhr.fetchTime.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(lhr));
}

/**
 * A buyer page (issue 32) is scored on every category. Its `noindex` is on purpose (a child's page
 * is no search hit), so Lighthouse's one audit that asks a page to be indexable is skipped.
 */
const ALL_CATEGORIES = { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'], skipAudits: ['is-crawlable'] };

async function auditOnce(url: string, localStorageValues?: Record<string, string>, allCategories = false) {
  return withChromium(async (port) => {
    if (localStorageValues) await seedLocalStorage(port, new URL(url).origin, localStorageValues);
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      ...(allCategories ? ALL_CATEGORIES : { onlyCategories: ['performance', 'accessibility'] }),
      disableStorageReset: Boolean(localStorageValues),
    });
    if (!result) throw new Error(`Lighthouse gav inget resultat för ${url}`);
    const { lhr } = result;
    if (REPORTS_DIR) keepReport(lhr, url);
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`Lighthouse hamnade på ${lhr.finalDisplayedUrl} i stället för ${url}`);
    }
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests =
      (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined)?.items ?? [];
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      bestPractices: allCategories ? Math.round((lhr.categories['best-practices']?.score ?? 0) * 100) : NaN,
      seo: allCategories ? Math.round((lhr.categories.seo?.score ?? 0) * 100) : NaN,
      metrics: {
        fcp: numeric('first-contentful-paint'),
        lcp: numeric('largest-contentful-paint'),
        tbt: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        speedIndex: numeric('speed-index'),
      },
      loaded: requests
        .filter(
          (request) =>
            (request.resourceType === 'Script' || request.resourceType === 'Stylesheet') && request.url.startsWith(new URL(url).origin),
        )
        .map((request) => new URL(request.url).pathname),
    };
  });
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP); such a run is made again. */
async function auditWithRetry(url: string, localStorageValues?: Record<string, string>, allCategories = false) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, localStorageValues, allCategories);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Lighthouse:')) throw error;
      console.warn(`  ${url}: ${String(error)}; kör igen`);
    }
  }
}

/** The median run by performance score (Lighthouse's own advice for a noisy machine). */
export async function measureLighthouse(
  url: string,
  options: { runs: number; localStorage?: Record<string, string>; allCategories?: boolean },
): Promise<LighthouseFigures> {
  const runs = [];
  for (let i = 0; i < options.runs; i++) runs.push(await auditWithRetry(url, options.localStorage, options.allCategories));
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { ...median, performanceRuns: runs.map((run) => run.performance) };
}
