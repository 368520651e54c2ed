import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBody, preferredEncoding } from './compressed-body.js';

describe('the encoding of a compressed body', () => {
  it('prefers brotli, then gzip, as the browser allows', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(preferredEncoding('BR')).toBe('br');
  });

  it('sends it as it is to a client that takes neither', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('gzip;q=0, br;q=0.0')).toBeUndefined();
  });

  it('answers the same for a header it has read before, among many others', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 200; i++) {
        expect(preferredEncoding(`gzip, x-${i}`)).toBe('gzip');
        expect(preferredEncoding(`br;q=0, x-${i}`)).toBeUndefined();
      }
      expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    }
  });
});

describe('compressBody', () => {
  it('gives back the same bytes from each encoding', () => {
    const text = JSON.stringify(
      Array.from({ length: 500 }, (_, i) => ({ user_id: i, seller_name: `Säljare ${i} Åström`, sales: i * 12.5 })),
    );
    for (const effort of ['once', 'often'] as const) {
      const body = compressBody(text, effort);
      expect(body.identity.toString()).toBe(text);
      expect(zlib.brotliDecompressSync(body.br).toString()).toBe(text);
      expect(zlib.gunzipSync(body.gzip).toString()).toBe(text);
      expect(body.gzip.length).toBeLessThan(body.identity.length / 3);
    }
  });
});
