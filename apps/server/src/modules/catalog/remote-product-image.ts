import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** A shop's picture server answers a thumbnail well within this, or the catalogue goes without it. */
export const REMOTE_IMAGE_TIMEOUT_MS = 3000;
/** A picture that failed is not asked for again before this, so a dead address never slows every download. */
const FAILURE_RETRY_MS = 10 * 60_000;
const MAX_REMEMBERED_FAILURES = 1000;

export interface RemoteImageOptions {
  dataDir: string;
  /** PNG or JPEG bytes within the size cap, or null: the caller's check of what may be embedded. */
  accept: (bytes: Buffer) => Buffer | null;
  maxBytes: number;
  timeoutMs?: number;
  /** Told why a fetch failed (a status, a timeout, too big, not a picture), once per failed fetch. */
  onFailure?: (reason: string) => void;
}

/** A fetched answer that is no picture to keep, with the reason for the operator's log. */
class ImageRefused extends Error {}

/** Addresses whose last fetch failed, with when they may be tried again. */
const failures = new Map<string, number>();
/** Fetches under way, so a catalogue listing the same picture twice, or two downloads at once, fetch it once. */
const inFlight = new Map<string, Promise<Buffer | null>>();

/** Where a fetched picture is kept: DATA_DIR/product-images/remote/<sha256 of the address>. */
export const remoteImageCachePath = (dataDir: string, url: string) =>
  path.join(dataDir, 'product-images', 'remote', crypto.createHash('sha256').update(url).digest('hex'));

/**
 * A product picture at an http(s) address (the CSV import's and Shopify's image URLs), fetched
 * once and then read from the data directory: the address is the cache key, and Shopify gives a
 * changed picture a new address (`?v=…`). Exactly the stored address is fetched, without following
 * redirects, with a short timeout and a size cap; only PNG or JPEG bytes are kept. Any failure
 * (unreachable, slow, 404, too big, another type) gives null, remembered for a while, and the
 * catalogue prints without the picture; `onFailure` hears why, once per fetch that failed.
 */
export async function loadRemoteImage(url: string, options: RemoteImageOptions): Promise<Buffer | null> {
  const file = remoteImageCachePath(options.dataDir, url);
  const cached = await fs.readFile(file).then(options.accept, () => null);
  if (cached) return cached;

  const retryAt = failures.get(url);
  if (retryAt !== undefined && retryAt > Date.now()) return null;

  let pending = inFlight.get(url);
  if (!pending) {
    pending = fetchAndKeep(url, file, options).finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
  }
  return pending;
}

async function fetchAndKeep(url: string, file: string, options: RemoteImageOptions): Promise<Buffer | null> {
  const bytes = await fetchImage(url, options).catch((error: unknown) => {
    options.onFailure?.(failureReason(error, options));
    return null;
  });
  if (!bytes) {
    if (failures.size >= MAX_REMEMBERED_FAILURES) failures.delete(failures.keys().next().value!);
    failures.set(url, Date.now() + FAILURE_RETRY_MS);
    return null;
  }
  failures.delete(url);
  await keep(file, bytes).catch(() => undefined);
  return bytes;
}

async function fetchImage(url: string, options: RemoteImageOptions): Promise<Buffer | null> {
  const response = await fetch(url, {
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs ?? REMOTE_IMAGE_TIMEOUT_MS),
    headers: { accept: 'image/png, image/jpeg' },
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new ImageRefused(response.ok ? 'svaret var tomt' : `svarade HTTP ${response.status}`);
  }
  const tooBig = `större än ${options.maxBytes} byte`;
  const declared = Number(response.headers.get('content-length'));
  if (declared > options.maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw new ImageRefused(tooBig);
  }
  // Read up to the cap and no further, whatever the headers said.
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > options.maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ImageRefused(tooBig);
    }
    chunks.push(Buffer.from(value));
  }
  const accepted = options.accept(Buffer.concat(chunks));
  if (!accepted) throw new ImageRefused('inte en PNG- eller JPEG-bild');
  return accepted;
}

/** Why a fetch failed, in a few words: never the address, which the product id leads to. */
function failureReason(error: unknown, options: RemoteImageOptions): string {
  if (error instanceof ImageRefused) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError')
    return `svarade inte inom ${options.timeoutMs ?? REMOTE_IMAGE_TIMEOUT_MS} ms`;
  // fetch's own failures (refused connection, unknown host, a redirect) carry the reason as the cause.
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `kunde inte hämtas (${String(detail)})`;
}

/** Written under a temporary name and renamed (write-file-atomic), so a reader never sees half a picture. */
async function keep(file: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, bytes);
}
