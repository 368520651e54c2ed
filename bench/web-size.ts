/**
 * The production web build, made into a directory of the bench's own (so a build in progress
 * never replaces the one other people are testing), and what a phone downloads from it: the JS
 * and CSS of /login (the entry, the app it imports at once, src/app/start.tsx, and their static
 * imports: the login page is part of the app) and of /dashboard (that plus the lazily imported
 * dashboard page and its imports), and the admin chunk, followed through Vite's manifest. Sizes
 * are gzip at level 9, as a server would send them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface RouteSize {
  js: FileSize[];
  css: FileSize[];
  jsGzip: number;
  cssGzip: number;
}

export interface WebSizes {
  outDir: string;
  /** index.html, which also carries the style sheet when the build inlines it. */
  html: FileSize;
  cssInlined: boolean;
  login: RouteSize;
  dashboard: RouteSize;
  /** /login and /dashboard together: every file either loads, counted once. */
  loginAndDashboardJsGzip: number;
  admin: RouteSize;
  /** The admin area's own chunk is not among the files /login and /dashboard load. */
  adminSeparate: boolean;
}

/** What the small entry (src/main.ts) imports as soon as it has run: every page loads it. */
export const APP_MODULE = 'src/app/start.tsx';
export const DASHBOARD_MODULE = 'src/features/dashboard/dashboard-page.tsx';
export const ADMIN_MODULE = 'src/features/admin/admin-routes.tsx';

export function buildWeb(webDir: string, outDir: string): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

export function sizeOf(outDir: string, file: string): FileSize {
  const bytes = fs.readFileSync(path.join(outDir, file));
  return { file, bytes: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
}

/** The chunk and everything it imports statically: what loads together with it. */
function closure(manifest: Manifest, keys: string[]): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} finns inte i Vites manifest`);
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return { js, css };
}

function routeSize(outDir: string, files: { js: Set<string>; css: Set<string> }): RouteSize {
  const js = [...files.js].map((file) => sizeOf(outDir, file));
  const css = [...files.css].map((file) => sizeOf(outDir, file));
  return { js, css, jsGzip: js.reduce((sum, file) => sum + file.gzip, 0), cssGzip: css.reduce((sum, file) => sum + file.gzip, 0) };
}

export function measureWebSizes(outDir: string): WebSizes {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('ingen ingång i Vites manifest');
  const login = closure(manifest, [entry, APP_MODULE]);
  const dashboard = closure(manifest, [entry, APP_MODULE, DASHBOARD_MODULE]);
  // With one style sheet for the whole app (apps/web/vite.config.ts), the manifest lists it on its
  // own rather than on a chunk: every page has it.
  for (const sheet of Object.values(manifest).filter((chunk) => chunk.src === 'style.css')) {
    login.css.add(sheet.file);
    dashboard.css.add(sheet.file);
  }
  const adminAll = closure(manifest, [ADMIN_MODULE]);
  const admin = {
    js: new Set([...adminAll.js].filter((file) => !dashboard.js.has(file))),
    css: new Set([...adminAll.css].filter((file) => !dashboard.css.has(file))),
  };
  const dashboardSize = routeSize(outDir, dashboard);
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  return {
    outDir,
    html: sizeOf(outDir, 'index.html'),
    cssInlined: [...dashboard.css].every((file) => !html.includes(file)) && html.includes('<style>'),
    login: routeSize(outDir, login),
    dashboard: dashboardSize,
    loginAndDashboardJsGzip: dashboardSize.jsGzip,
    admin: routeSize(outDir, admin),
    adminSeparate: !dashboard.js.has(manifest[ADMIN_MODULE]!.file),
  };
}
