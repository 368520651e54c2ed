import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProductImage } from './load-product-image.js';

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

  it('leaves out remote addresses, missing files and what is not a PNG or JPEG', async () => {
    expect(await loadProductImage('https://cdn.shopify.com/s/files/kaffe.png', { dataDir })).toBeNull();
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
