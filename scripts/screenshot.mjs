// Takes screenshots of pages with Debian's Chromium: node scripts/screenshot.mjs URL OUT.png [phone|desktop] [email]
// Signs in with PASSWORD, or the demo password the server kept in DATA_DIR (default ./data).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const [url, out, viewport = 'desktop', email] = process.argv.slice(2);
const browser = await chromium.launch({
  // The test command installs Debian's headless build (decision 061); a desktop machine may have the full one.
  executablePath: process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find((path) => existsSync(path)),
  args: ['--disable-background-networking'],
});
const context = await browser.newContext(
  viewport === 'phone'
    ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'sv-SE' }
    : { viewport: { width: 1280, height: 900 }, locale: 'sv-SE' },
);
const page = await context.newPage();
if (email) {
  const origin = new URL(url).origin;
  const response = await page.request.post(`${origin}/api/auth/login`, {
    data: {
      email,
      password: process.env.PASSWORD ?? readFileSync(path.join(process.env.DATA_DIR ?? 'data', 'demo-password'), 'utf8').trim(),
    },
  });
  const { token } = await response.json();
  await page.goto(origin + '/login');
  await page.evaluate((t) => localStorage.setItem('saljportalen.token', t), token);
}
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(Number(process.env.WAIT ?? 300));
await page.screenshot({ path: out, fullPage: true });
await browser.close();
