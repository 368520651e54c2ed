import { describe, expect, it } from 'vitest';
import { preferredEncoding } from './web.js';

describe('the encoding of the app shell', () => {
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
});
