import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProductImage } from './load-product-image.js';
import { remoteImageCachePath } from './remote-product-image.js';

let dataDir: string;
let outside: string;
let png: Buffer;

beforeAll(async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-images-'));
  dataDir = path.join(base, 'data');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(dataDir, 'product-images'), { recursive: true });
  fs.mkdirSync(outside);
  png = await QRCode.toBuffer('bild', { type: 'png' });
  fs.writeFileSync(path.join(dataDir, 'product-images', 'kaffe.png'), png);
  fs.writeFileSync(path.join(dataDir, 'product-images', 'inte-en-bild.png'), 'hej');
  fs.writeFileSync(path.join(outside, 'hemlig.png'), png);
  fs.symlinkSync(path.join(outside, 'hemlig.png'), path.join(dataDir, 'product-images', 'genväg.png'));
});
afterAll(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

describe('loadProductImage', () => {
  it('reads a PNG data URL', async () => {
    expect(await loadProductImage(`data:image/png;base64,${png.toString('base64')}`, { dataDir })).toEqual(png);
  });

  it('reads a file inside the data directory by relative path, absolute path or file URL', async () => {
    const file = path.join(dataDir, 'product-images', 'kaffe.png');
    expect(await loadProductImage('product-images/kaffe.png', { dataDir })).toEqual(png);
    expect(await loadProductImage(file, { dataDir })).toEqual(png);
    expect(await loadProductImage(pathToFileURL(file).href, { dataDir })).toEqual(png);
  });

  it('leaves out other schemes, missing files and what is not a PNG or JPEG', async () => {
    expect(await loadProductImage('ftp://127.0.0.1/kaffe.png', { dataDir })).toBeNull();
    expect(await loadProductImage('javascript:alert(1)', { dataDir })).toBeNull();
    expect(await loadProductImage('product-images/finns-inte.png', { dataDir })).toBeNull();
    expect(await loadProductImage('product-images/inte-en-bild.png', { dataDir })).toBeNull();
    expect(await loadProductImage('data:image/png;base64,aGVq', { dataDir })).toBeNull();
    expect(await loadProductImage(null, { dataDir })).toBeNull();
  });

  it('never reads outside the data directory, by `..` or by symlink', async () => {
    expect(await loadProductImage('../outside/hemlig.png', { dataDir })).toBeNull();
    expect(await loadProductImage(path.join(outside, 'hemlig.png'), { dataDir })).toBeNull();
    expect(await loadProductImage('product-images/genväg.png', { dataDir })).toBeNull();
    expect(await loadProductImage('/etc/passwd', { dataDir })).toBeNull();
  });
});

/**
 * Pictures at http(s) addresses, from a real picture server on the loopback: what it answers, and
 * how often it was asked for each path.
 */
describe('loadProductImage at an http address', () => {
  const hits = new Map<string, number>();
  const held: http.ServerResponse[] = [];
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
  const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(5 * 1024 * 1024 + 1)]);
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const route = request.url!;
      hits.set(route, (hits.get(route) ?? 0) + 1);
      if (route.startsWith('/kaffe.png') || route === '/en-gang.png' || route === '/sparad.png') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      } else if (route === '/foto') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(jpeg);
      } else if (route === '/sida.png') {
        response.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><p>Inte här</p>');
      } else if (route === '/stor-med-langd.png') {
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big);
      } else if (route === '/stor-utan-langd.png') {
        // Chunked, so only the bytes themselves tell the size.
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let offset = 0; offset < big.length; offset += 64 * 1024) response.write(big.subarray(offset, offset + 64 * 1024));
        response.end();
      } else if (route === '/flyttad.png') {
        response.writeHead(302, { location: '/kaffe.png' }).end();
      } else if (route === '/seg.png') {
        held.push(response);
      } else {
        response.writeHead(404).end('Not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a PNG or JPEG, by its bytes whatever the address or type header says', async () => {
    expect(await loadProductImage(`${base}/kaffe.png?v=1`, { dataDir })).toEqual(png);
    expect(await loadProductImage(`${base}/foto`, { dataDir })).toEqual(jpeg);
    expect(await loadProductImage(`${base}/sida.png`, { dataDir })).toBeNull();
  });

  it('keeps the picture in the data directory and does not fetch it again', async () => {
    const url = `${base}/sparad.png`;
    expect(await loadProductImage(url, { dataDir })).toEqual(png);
    expect(fs.readFileSync(remoteImageCachePath(dataDir, url))).toEqual(png);
    expect(await loadProductImage(url, { dataDir })).toEqual(png);
    expect(hits.get('/sparad.png')).toBe(1);
    // Another address is another picture (Shopify's ?v= after a change).
    expect(await loadProductImage(`${base}/kaffe.png?v=2`, { dataDir })).toEqual(png);
    expect(hits.get('/kaffe.png?v=2')).toBe(1);
  });

  it('fetches a picture once when it is asked for twice at the same time', async () => {
    const url = `${base}/en-gang.png`;
    expect(await Promise.all([loadProductImage(url, { dataDir }), loadProductImage(url, { dataDir })])).toEqual([png, png]);
    expect(hits.get('/en-gang.png')).toBe(1);
  });

  it('gives null for a 404, a redirect, a picture over 5 MB and a server too slow to answer', async () => {
    expect(await loadProductImage(`${base}/saknas.png`, { dataDir })).toBeNull();
    expect(await loadProductImage(`${base}/flyttad.png`, { dataDir })).toBeNull();
    expect(hits.get('/kaffe.png')).toBeUndefined();
    expect(await loadProductImage(`${base}/stor-med-langd.png`, { dataDir })).toBeNull();
    expect(await loadProductImage(`${base}/stor-utan-langd.png`, { dataDir })).toBeNull();
    const started = Date.now();
    expect(await loadProductImage(`${base}/seg.png`, { dataDir, remoteTimeoutMs: 200 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await loadProductImage('http://127.0.0.1:1/stangd.png', { dataDir })).toBeNull();
  });

  it('remembers a failure for a while instead of asking again on every catalogue', async () => {
    const url = `${base}/borta.png`;
    expect(await loadProductImage(url, { dataDir })).toBeNull();
    expect(await loadProductImage(url, { dataDir })).toBeNull();
    expect(hits.get('/borta.png')).toBe(1);
    expect(fs.existsSync(remoteImageCachePath(dataDir, url))).toBe(false);
  });
});

/**
 * A picture left out is logged: which product and why, in a few words, and nothing else (no
 * address, no path; issue 16). A remote failure is logged once per fetch, not on every catalogue.
 */
describe('loadProductImage reports why a picture is missing', () => {
  let server: http.Server;
  let base: string;
  let closedPort: number;

  beforeAll(async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    server = http.createServer((request, response) => {
      if (request.url === '/bild.png') response.writeHead(200).end(png);
      else if (request.url === '/text.png') response.writeHead(200).end('ingen bild');
      else if (request.url === '/flyttad.png') response.writeHead(302, { location: '/bild.png' }).end();
      else if (request.url === '/seg.png') setTimeout(() => response.writeHead(200).end(png), 1000);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function warningsFor(imageUrl: string, remoteTimeoutMs?: number) {
    const warnings: { details: object; message: string }[] = [];
    const log = { warn: (details: object, message: string) => warnings.push({ details, message }) };
    const image = await loadProductImage(imageUrl, { dataDir, remoteTimeoutMs, report: { productId: 42, log } });
    return { image, warnings };
  }

  it.each([
    ['an http 404', () => `${base}/saknas-${Date.now()}.png`, /HTTP 404/],
    ['an answer that is no picture', () => `${base}/text.png`, /inte en PNG- eller JPEG-bild/],
    ['a redirect', () => `${base}/flyttad.png`, /kunde inte hämtas/],
    ['a server too slow to answer', () => `${base}/seg.png`, /svarade inte inom 100 ms/],
    ['a closed port', () => `http://127.0.0.1:${closedPort}/stangd.png`, /kunde inte hämtas \(ECONNREFUSED\)/],
    ['a data URL that is no picture', () => 'data:image/png;base64,aGVq', /data-adressen/],
    ['another scheme', () => 'ftp://127.0.0.1/kaffe.png', /varken http\(s\), data eller en fil/],
    ['a missing file', () => 'product-images/finns-inte.png', /filen kunde inte läsas \(ENOENT\)/],
    ['a file that is no picture', () => 'product-images/inte-en-bild.png', /ingen PNG- eller JPEG-bild/],
    ['a file outside the data directory', () => '../outside/hemlig.png', /utanför datakatalogen/],
  ])('logs %s with the product id and the reason only', async (_case, imageUrl, reason) => {
    const url = imageUrl();
    const { image, warnings } = await warningsFor(url, 100);
    expect(image).toBeNull();
    expect(warnings).toEqual([
      { details: { productId: 42, reason: expect.stringMatching(reason) }, message: 'produktbilden kunde inte användas' },
    ]);
    expect(JSON.stringify(warnings)).not.toContain(url);
    expect(JSON.stringify(warnings)).not.toContain(dataDir);
  });

  it('logs nothing for a picture it could use, and a remote failure once while it is remembered', async () => {
    expect(await warningsFor(`${base}/bild.png`)).toEqual({ image: png, warnings: [] });
    expect(await warningsFor('product-images/kaffe.png')).toEqual({ image: png, warnings: [] });
    const url = `${base}/borta-${Date.now()}.png`;
    expect((await warningsFor(url)).warnings).toHaveLength(1);
    expect((await warningsFor(url)).warnings).toHaveLength(0);
  });
});
