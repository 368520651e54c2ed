import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRemoteImage } from './remote-product-image.js';

/** A bigger picture than this is not a product thumbnail; it would only slow the catalogue down. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const isPngOrJpeg = (bytes: Buffer) =>
  (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) ||
  (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47);

/** Where a picture that could not be used is reported: the server's logger (pino). */
export interface ProductImageLog {
  warn: (details: { productId: number; reason: string }, message: string) => void;
}

/**
 * The bytes of a product picture the catalogue can embed: a base64 data URL, an http(s) address
 * (what the CSV import and Shopify store; fetched once with a short timeout and kept in the data
 * directory, see remote-product-image.ts), or a file inside the data directory (never elsewhere
 * on disk, whatever the stored path says). Anything else, or any failure, is null: the catalogue
 * then prints the product without its picture, and the log says which product and why (a
 * remote picture's failure once per fetch, as a failed address is not asked again for a while).
 */
export async function loadProductImage(
  imageUrl: string | null,
  options: { dataDir: string; remoteTimeoutMs?: number; report?: { productId: number; log: ProductImageLog } },
): Promise<Buffer | null> {
  const fail = (reason: string): null => {
    options.report?.log.warn({ productId: options.report.productId, reason }, 'produktbilden kunde inte användas');
    return null;
  };
  if (!imageUrl) return null;
  const dataUrl = /^data:image\/(?:png|jpe?g);base64,(.+)$/i.exec(imageUrl.trim());
  if (dataUrl) return acceptable(Buffer.from(dataUrl[1]!, 'base64')) ?? fail('data-adressen är ingen PNG- eller JPEG-bild på högst 5 MB');
  if (/^https?:\/\//i.test(imageUrl.trim())) {
    return loadRemoteImage(imageUrl.trim(), {
      dataDir: options.dataDir,
      accept: acceptable,
      maxBytes: MAX_IMAGE_BYTES,
      timeoutMs: options.remoteTimeoutMs,
      onFailure: fail,
    });
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(imageUrl) && !imageUrl.startsWith('file:')) return fail('adressen är varken http(s), data eller en fil');

  try {
    // Real paths on both sides, so neither `..` nor a symlink leads out of the data directory.
    const root = await fs.realpath(options.dataDir);
    const filePath = await fs.realpath(path.resolve(root, imageUrl.startsWith('file:') ? fileURLToPath(imageUrl) : imageUrl));
    if (!filePath.startsWith(root + path.sep)) return fail('filen ligger utanför datakatalogen');
    const stat = await fs.stat(filePath);
    if (!stat.isFile() || stat.size > MAX_IMAGE_BYTES) return fail(stat.isFile() ? 'filen är större än 5 MB' : 'sökvägen är ingen fil');
    return acceptable(await fs.readFile(filePath)) ?? fail('filen är ingen PNG- eller JPEG-bild');
  } catch (error) {
    // The code only (ENOENT, EACCES): the message would repeat the path.
    return fail(`filen kunde inte läsas (${(error as NodeJS.ErrnoException).code ?? 'okänt fel'})`);
  }
}

function acceptable(bytes: Buffer): Buffer | null {
  return bytes.length <= MAX_IMAGE_BYTES && isPngOrJpeg(bytes) ? bytes : null;
}
