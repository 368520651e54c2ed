import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip' | undefined;

/** Browsers send a handful of different headers: each is read once (bounded, for whatever else arrives). */
const encodingOfHeader = new Map<string, Encoding>();
const HEADERS_REMEMBERED = 64;

/** br or gzip when the browser takes it (`Accept-Encoding`, a `;q=0` refuses), else none. */
export function preferredEncoding(header: string | string[] | undefined): Encoding {
  if (typeof header !== 'string') return readEncoding(header);
  let encoding = encodingOfHeader.get(header);
  if (encoding === undefined && !encodingOfHeader.has(header)) {
    encoding = readEncoding(header);
    if (encodingOfHeader.size >= HEADERS_REMEMBERED) encodingOfHeader.clear();
    encodingOfHeader.set(header, encoding);
  }
  return encoding;
}

function readEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Set(
    String(header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** A body that is sent many times as it is, compressed once. */
export interface CompressedBody {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * `once`: the smallest result, for what is made at start (the app's shell); `often`: fast
 * settings, for what is made again whenever its data changes (a leaderboard).
 */
export function compressBody(body: string | Buffer, effort: 'once' | 'often'): CompressedBody {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return {
    identity,
    br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: effort === 'once' ? 11 : 4 } }),
    gzip: zlib.gzipSync(identity, { level: effort === 'once' ? 9 : 6 }),
  };
}

/** Sends the encoding the client takes best; the reply's content type is the caller's. */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: CompressedBody): FastifyReply {
  reply.header('Vary', 'Accept-Encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  return encoding ? reply.header('Content-Encoding', encoding).send(body[encoding]) : reply.send(body.identity);
}
