// Renders apps/web/public/favicon.svg into the PNG icons the web manifest and iOS use, with
// Debian's Chromium: node scripts/generate-icons.mjs. The PNGs are committed; run again after
// changing the SVG.
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const publicDir = path.resolve('apps/web/public');
const svg = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
const svgUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const BRAND = '#065f46';

/**
 * `any` icons keep the SVG's rounded corners on a transparent ground. Maskable and Apple icons
 * must be opaque squares the platform crops: brand green to the edges, and a maskable icon's art
 * inside the 80 % safe zone (iOS only rounds the corners, so its art may fill the square).
 */
const icons = [
  { file: 'icons/icon-192.png', size: 192, fullBleed: false, artScale: 1 },
  { file: 'icons/icon-512.png', size: 512, fullBleed: false, artScale: 1 },
  { file: 'icons/icon-maskable-512.png', size: 512, fullBleed: true, artScale: 0.8 },
  { file: 'icons/apple-touch-icon.png', size: 180, fullBleed: true, artScale: 1 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
mkdirSync(path.join(publicDir, 'icons'), { recursive: true });
for (const icon of icons) {
  const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
  const artSize = Math.round(icon.size * icon.artScale);
  await page.setContent(
    `<html><body style="margin:0;width:${icon.size}px;height:${icon.size}px;display:grid;place-items:center;background:${icon.fullBleed ? BRAND : 'transparent'}">` +
      `<img src="${svgUrl}" width="${artSize}" height="${artSize}" alt=""></body></html>`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  await page.screenshot({ path: path.join(publicDir, icon.file), omitBackground: !icon.fullBleed });
  await page.close();
  console.log(`${icon.file} ${icon.size}×${icon.size}`);
}
await browser.close();
