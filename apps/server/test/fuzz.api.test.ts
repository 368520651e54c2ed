/**
 * Issue 28, point 6: no 5xx from any text. At least 10,000 generated requests (on PostgreSQL; a
 * tenth of them on PGlite, see SCALE) over every route of the route table, four at a time over real HTTP, with real sessions of each role (seller, group
 * admin, superadmin, guardian) so that authenticated routes are reached past the guard, bodies and
 * query strings generated from each route's own contract schema (valid ones, valid ones with one
 * field made hostile, and wholly hostile ones: lone surrogates, NUL, huge numbers, deep nesting,
 * wrong types, broken JSON), hostile path parameters, headers the server reads (Authorization,
 * the refresh cookie, Last-Event-ID, Accept-Encoding, Content-Type) and signed Shopify webhooks
 * with hostile text. No answer may be a 5xx. The routes that end a session (logout, change of
 * password or e-mail, deleting or erasing an account) run last, with throwaway accounts.
 *
 * The seed is printed; FUZZ_SEED=<n> replays the same requests (the order they reach the database
 * in may differ, four being in flight at a time). FUZZ_LOG_LEVEL=error shows the server's errors
 * and the routes that took longest.
 */
import fc from 'fast-check';
import { createSigner } from 'fast-jwt';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signShopifyWebhook } from '../src/modules/shopify/webhook-signature.js';
import { groupIdByCode, sqlRows } from './admin-fixtures.js';
import { TEST_WEBHOOK_SECRET, swedishOrder, swedishRefund } from './shopify-webhooks.js';
import { TEST_JWT_SECRET, eventually, startTestServer, testDbKind, type TestServer } from './test-server.js';

const SEED = process.env.FUZZ_SEED === undefined ? 20_261_128 : Number(process.env.FUZZ_SEED);
/**
 * The whole fuzz on PostgreSQL; on PGlite, whose one WebAssembly backend runs every statement in the
 * test's own process, a tenth of it: the same routes, roles, kinds of text and checks, each route
 * still reached past its guard (decisions 062 and 077). What a text meets differently on the two
 * databases (the jsonb of the audit log, a column's encoding, the driver's parameters) every
 * route's first requests reach already.
 */
const SCALE = testDbKind === 'postgres' ? 1 : 0.1;
const MIN_REQUESTS = 10_000 * SCALE;
/**
 * Requests per route. A password hash takes tens of milliseconds (on the thread pool), a PDF or a
 * whole export hundreds, holding every other request up: fewer of those, so that the run stays short.
 */
const PER_ROUTE = {
  plain: Math.ceil(175 * SCALE),
  hashing: Math.ceil(45 * SCALE),
  destructive: Math.ceil(30 * SCALE),
  webhook: Math.ceil(500 * SCALE),
  // Few already, and a route's work is reached past its guard only by some of them: whole on both.
  head: 30,
  drawing: 10,
};
const CONCURRENCY = 4;

const isDrawing = (route: string) => /\.pdf$|export|\/metrics$/.test(route);
const HASHING = new Set([
  'POST /api/auth/login',
  'POST /api/auth/register-seller',
  'POST /api/auth/reset-password',
  'POST /api/guardian/consent',
  'POST /api/admin/groups/create',
  'POST /api/admin/groups/:id/add-user',
]);
/** Routes that can end the session they are called with (or another's): run last, on throwaway accounts. */
const DESTRUCTIVE = new Set([
  'POST /api/auth/logout',
  'POST /api/account/change-password',
  'POST /api/account/change-email',
  'POST /api/account/delete',
  'POST /api/admin/users/:userId/erase',
]);

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Text that is not well-formed UTF-16, or that PostgreSQL cannot store, or that breaks a line. */
const BROKEN_TEXT = [
  '\uD800',
  '\uDFFF',
  '\uDC00\uD800',
  'Fuzz\uD83Dgruppen',
  'a\uDE00',
  '\u0000',
  'a\u0000b',
  '\uD800\u0000',
  '\uFFFE\uFFFF',
  '\uFEFF',
  '\r\n=cmd|"/c calc"!A1',
  '\u001b[31m',
  '\u2028\u2029',
  '\u202Eevil',
  '🙂👨‍👩‍👧',
];
const hostileText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 4, arbitrary: fc.constantFrom(...BROKEN_TEXT) },
  // Broken text inside otherwise good text, where a check of the whole value would miss it.
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(...BROKEN_TEXT), fc.string({ maxLength: 10 })).map(([bad, good]) => `Ok ${good}${bad} ok`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      "' OR 1=1 --",
      '<script>x</script>',
      '=1+1',
      '../../etc/passwd',
      '%00',
      'null',
      '1e309',
      '-0',
      'ÅÄÖ',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((length) => 'å'.repeat(length)) },
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 1e21, 1e308, -1e308, 5e-324),
);

/** A JSON value kept as text, so that object keys like `__proto__` and huge number literals reach the body as written. */
type Json = string;
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'name', '\uD800', '\u0000'),
  fc.string({ maxLength: 8 }),
);
const { value: hostileJson } = fc.letrec<{ value: Json; array: Json; object: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText.map((text) => JSON.stringify(text)),
    hostileNumber.map((number) => JSON.stringify(number)),
    fc.constantFrom('true', 'false', 'null', '1e999', '-1e999', '123456789012345678901234567890', '0.0000000000000000000001'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
}));
const deepNesting = fc.oneof(
  fc.integer({ min: 100, max: 100_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 100, max: 50_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
);

// ---------------------------------------------------------------------------------------------
// Bodies and query strings from the contract's schema

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  items?: JsonSchema;
}

/** What the database holds, so that generated values name real rows and get past the first lookups. */
interface Known {
  emails: string[];
  groupCodes: string[];
  linkCodes: string[];
  consentCodes: string[];
  /** Tickets for the event stream, each good for one stream: a few reach the stream itself. */
  tickets: string[];
  ids: {
    groups: number[];
    users: number[];
    payouts: number[];
    orders: number[];
    memberships: number[];
    webhooks: number[];
    children: number[];
  };
}

const DATES = ['2020-01-01', '2026-03-10', '2099-12-31', '2025-02-30', '0000-00-00', '9999-12-31'];

/** Values a field of this name takes in the portal: real rows first, so that handlers run. */
function fieldValues(name: string, known: Known): fc.Arbitrary<unknown> | undefined {
  const ids = known.ids;
  const realId = (list: number[]) =>
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...list) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 31 - 1 }) });
  if (/email$/.test(name))
    return fc.oneof(
      fc.constantFrom(...known.emails),
      fc.uuid().map((id) => `fuzz-${id.slice(0, 8)}@demo.se`),
    );
  if (/password$/.test(name)) return fc.oneof(fc.constant('demo1234'), fc.string({ minLength: 8, maxLength: 20 }));
  if (name === 'group_code') return fc.constantFrom(...known.groupCodes);
  if (name === 'code') return fc.oneof(fc.constantFrom(...known.consentCodes), fc.base64String({ minLength: 12, maxLength: 44 }));
  if (name === 'ticket') return fc.oneof(fc.constantFrom(...known.tickets), fc.base64String({ minLength: 4, maxLength: 44 }));
  if (name === 'from' || name === 'to' || name === 'ends_on') return fc.constantFrom(...DATES);
  if (name === 'group_id') return realId(ids.groups);
  if (name === 'membership_id') return realId(ids.memberships);
  if (name === 'userId') return realId(ids.users);
  return undefined;
}

function idsFor(route: string, known: Known): number[] {
  const ids = known.ids;
  if (route.includes('/guardian/children/')) return ids.children;
  if (route.includes(':userId')) return ids.users;
  if (route.includes('/payouts/')) return ids.payouts;
  if (route.includes('/orders/')) return ids.orders;
  if (route.includes('/webhooks/')) return ids.webhooks;
  return ids.groups;
}

/** Values that satisfy the schema (mostly: a pattern is not always met), as a plain JS value. */
function fromSchema(schema: JsonSchema, name: string, known: Known): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => fromSchema(option, name, known)));
  const hinted = fieldValues(name, known);
  if (hinted) return hinted;
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, fromSchema(property, key, known)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, name, known), { maxLength: 3 });
    case 'string':
      return fc
        .string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) })
        .map((text) => (text.length < (schema.minLength ?? 0) ? text.padEnd(schema.minLength ?? 0, 'x') : text));
    case 'integer':
      return fc.integer({
        min: schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1000 : schema.exclusiveMinimum + 1),
        max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31 - 1),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    default:
      return hostileJson.map((text) => JSON.parse(text) as unknown);
  }
}

/** A JSON body for the schema: valid, valid with one field hostile, or hostile through and through. */
function bodyFor(schema: JsonSchema | undefined, known: Known): fc.Arbitrary<Body> {
  const valid = schema ? fromSchema(schema, '', known) : fc.constant({});
  const fieldNames = Object.keys(schema?.properties ?? {});
  const oneFieldHostile = fc
    .tuple(valid, fieldNames.length ? fc.oneof(fc.constantFrom(...fieldNames), hostileKey) : hostileKey, hostileJson)
    .map(([value, field, hostile]) => {
      const entries = Object.entries((value ?? {}) as Record<string, unknown>).filter(([key]) => key !== field);
      return json(
        `{${[...entries.map(([key, item]) => `${JSON.stringify(key)}:${JSON.stringify(item)}`), `${JSON.stringify(field)}:${hostile}`].join(',')}}`,
      );
    });
  // Every string of a valid body with broken text in it: what a name field, a goal's purpose or a code would carry.
  const brokenStrings = fc
    .tuple(valid, fc.constantFrom(...BROKEN_TEXT))
    .map(([value, bad]) =>
      json(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? `${item.slice(0, 3)}${bad}${item.slice(3)}` : item))),
    );
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((value) => json(JSON.stringify(value))) },
    { weight: 4, arbitrary: oneFieldHostile },
    { weight: 3, arbitrary: brokenStrings },
    { weight: 1, arbitrary: hostileJson.map(json) },
    { weight: 1, arbitrary: deepNesting.map(json) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        valid.map((value) => JSON.stringify(value)).chain((text) => fc.nat(text.length).map((cut) => json(text.slice(0, cut)))),
        fc.string({ unit: 'binary', maxLength: 60 }).map(json),
        fc
          .tuple(
            valid,
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=x',
              'text/csv',
              'application/json; charset=utf-16',
              'application/json; charset=latin1',
            ),
          )
          .map(([value, contentType]) => ({ text: JSON.stringify(value), contentType })),
        // Over the 1 MB body limit.
        fc.constant(json(JSON.stringify({ name: 'å'.repeat(600_000) }))),
      ),
    },
  );
}

/**
 * Text for a URL as a client could send it: percent-encoded UTF-8, except that a lone surrogate
 * becomes the bytes a careless encoder writes for it (ED A0 80, invalid UTF-8), and raw broken
 * escapes pass as they are.
 */
function urlText(text: string): string {
  return [...text]
    .map((character) => {
      const code = character.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff)
        return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      return encodeURIComponent(character);
    })
    .join('');
}
const RAW_URL_TEXT = ['%', '%zz', '%C0%80', '%ED%A0%80', '%FF%FE', '%00', '%E0%A4%A', '%F0%9F%99%82', '..%2F..', '%2e%2e'];
const hostileUrlText = fc.oneof(
  { weight: 3, arbitrary: hostileText.map((text) => urlText(text.slice(0, 200))) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_TEXT) },
);

function queryFor(schema: JsonSchema | undefined, known: Known): fc.Arbitrary<string> {
  const valid = schema ? fromSchema(schema, '', known) : fc.constant({});
  const names = [...Object.keys(schema?.properties ?? {}), 'q', 'page', '__proto__', 'constructor[prototype][x]', 'a[b]'];
  const pairs = (value: unknown) =>
    Object.entries((value ?? {}) as Record<string, unknown>).map(([key, item]) => `${urlText(key)}=${urlText(String(item))}`);
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((value) => pairs(value).join('&')) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          valid,
          fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), hostileUrlText), fc.oneof(hostileUrlText, hostileNumber.map(String))), {
            minLength: 1,
            maxLength: 3,
          }),
        )
        .map(([value, hostile]) => [...pairs(value), ...hostile.map(([key, item]) => `${key}=${item}`)].join('&')),
    },
    { weight: 1, arbitrary: fc.constantFrom('&&&', '=', 'x', 'group_id=1&group_id=2', 'group_id[]=1', 'from=2020-01-01&from=2021-01-01') },
  );
}

function pathFor(route: string, known: Known): fc.Arbitrary<string> {
  const pattern = route.split(' ')[1]!;
  const params = pattern.match(/:\w+/g) ?? [];
  if (params.length === 0) return fc.constant(pattern);
  const value = pattern.startsWith('/s/')
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known.linkCodes) }, { weight: 2, arbitrary: hostileUrlText })
    : fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...idsFor(route, known).map(String)) },
        {
          weight: 2,
          arbitrary: fc.oneof(
            hostileUrlText,
            fc.constantFrom('0', '-1', '1.5', '1e3', '0x10', '2147483648', '99999999999999999999', '9'.repeat(400), ' 1', 'null'),
          ),
        },
      );
  return fc
    .array(value, { minLength: params.length, maxLength: params.length })
    .map((values) => params.reduce((path, name, index) => path.replace(name, values[index]!), pattern));
}

// ---------------------------------------------------------------------------------------------
// Headers

interface Body {
  text: string;
  contentType: string;
}
const json = (text: string): Body => ({ text, contentType: 'application/json' });

/** A header value fetch can send: Latin-1, no NUL, CR or LF (anything else no HTTP client can put on the wire). */
const headerText = hostileText.map((text) => text.slice(0, 500).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?'));

const signJwt = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: 15 * 60 * 1000 });
/** Tokens signed with the server's own secret (so they pass the signature check) whose claims are wrong: huge, negative or odd ids, odd sessions. */
const forgedToken = fc
  .record({
    sub: fc.oneof(
      fc.constantFrom('1', '0', '-1', '2147483648', '99999999999999999999', '1e3', '\uD800', 'abc', ''),
      hostileNumber.map(String),
    ),
    ver: fc.oneof(hostileNumber, fc.constant('1')),
    sid: fc.oneof(fc.uuid(), fc.constantFrom('x', '\u0000', '\uD800', '00000000-0000-0000-0000-00000000000g'), hostileText),
  })
  .map((claims) => signJwt(claims));

type Role = 'seller' | 'groupAdmin' | 'superadmin' | 'guardian';
const rolesFor = (route: string): Role[] =>
  route.includes(' /api/admin/')
    ? ['superadmin', 'superadmin', 'superadmin', 'groupAdmin', 'seller']
    : /\/api\/group\/(settings|goal|members)/.test(route)
      ? ['groupAdmin', 'groupAdmin', 'groupAdmin', 'seller', 'superadmin']
      : route.includes('/api/guardian/children')
        ? ['guardian', 'guardian', 'guardian', 'seller', 'superadmin']
        : ['seller', 'seller', 'groupAdmin', 'superadmin', 'guardian'];

type Authorization = { role: Role } | { header: string } | null;
const authorizationFor = (route: string): fc.Arbitrary<Authorization> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...rolesFor(route)).map((role) => ({ role })) },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        forgedToken.map((token) => ({ header: `Bearer ${token}` })),
        headerText.map((text) => ({ header: `Bearer ${text}` })),
        headerText.map((header) => ({ header })),
        fc.constantFrom(
          { header: 'Bearer' },
          { header: 'Basic YWRtaW46YWRtaW4=' },
          { header: 'Bearer a.b.c' },
          { header: `Bearer ${'a'.repeat(8000)}` },
        ),
      ),
    },
  );

const extraHeaders = fc.record(
  {
    cookie: fc.oneof(
      headerText.map((text) => `sp_refresh=${text}`),
      hostileUrlText.map((text) => `sp_refresh=${text}`),
      headerText,
    ),
    'last-event-id': headerText,
    'accept-encoding': fc.oneof(headerText, fc.constantFrom('gzip;q=NaN', 'br;q=1e999, *;q=-1', 'identity;q=0, *;q=0')),
    'x-forwarded-for': headerText,
    'if-none-match': headerText,
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------
// Sending

interface Request {
  route: string;
  method: string;
  path: string;
  authorization: Authorization;
  headers: Record<string, string>;
  body?: Body;
}

function requestsFor(route: string, schema: Record<string, JsonSchema>, known: Known): fc.Arbitrary<Request> {
  const method = route.split(' ')[0]!;
  const hasBody = method === 'POST' || method === 'PATCH';
  return fc
    .record({
      path: pathFor(route, known),
      query: fc.oneof(
        { weight: 1, arbitrary: fc.constant('') },
        { weight: schema.querystring ? 4 : 1, arbitrary: queryFor(schema.querystring, known) },
      ),
      body: hasBody ? bodyFor(schema.body, known) : fc.constant(undefined),
      authorization: authorizationFor(route),
      headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extraHeaders }),
    })
    .map(({ path, query, body, authorization, headers }) => ({
      route,
      method,
      path: query ? `${path}?${query}` : path,
      authorization,
      headers: headers as Record<string, string>,
      body,
    }));
}

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  failures: string[];
}

async function send(request: Request, tokenOf: (role: Role) => string, tally: Tally): Promise<number> {
  const authorization =
    request.authorization === null
      ? undefined
      : 'role' in request.authorization
        ? `Bearer ${tokenOf(request.authorization.role)}`
        : request.authorization.header;
  const where = `${request.method} ${request.path.slice(0, 200)}`;
  tally.requests += 1;
  const started = performance.now();
  let status: number;
  try {
    const response = await fetch(server.url + request.path, {
      method: request.method,
      redirect: 'manual',
      headers: {
        ...request.headers,
        ...(authorization ? { authorization } : {}),
        ...(request.body ? { 'content-type': request.body.contentType } : {}),
      },
      body: request.body?.text,
      signal: AbortSignal.timeout(30_000),
    });
    status = response.status;
    // An event stream stays open; its first answer is enough.
    const text = response.headers.get('content-type')?.startsWith('text/event-stream')
      ? (await response.body?.cancel(), '')
      : await response.text();
    // The readiness probe answers 503 while the database is slower than its bound (READY_CHECK_TIMEOUT_MS):
    // that is its answer, which a busy machine may give, not a failure of the request.
    const probeSaysNotReady = status === 503 && request.method === 'GET' && request.path.split('?')[0] === '/api/ready';
    if (status >= 500 && !probeSaysNotReady)
      tally.failures.push(
        `[${authorization?.slice(0, 300) ?? ''}] ` +
          `${where} → ${status} ${text.slice(0, 300)} ← ${JSON.stringify(request.headers).slice(0, 200)} ${request.body?.text.slice(0, 300) ?? ''}`,
      );
  } catch (error) {
    // Node's HTTP server refuses a request it cannot parse by closing the connection; anything else is a failure.
    status = 0;
    tally.failures.push(
      `${where} → ingen förbindelse (${(error as Error).message}${(error as Error).cause ? `: ${String((error as Error).cause)}` : ''}) ← ${request.body?.text.slice(0, 200) ?? ''}`,
    );
  }
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  timeByRoute.set(request.route, (timeByRoute.get(request.route) ?? 0) + performance.now() - started);
  if (status !== 401 && status !== 403) pastTheGuard.add(request.route);
  return status;
}

async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

// ---------------------------------------------------------------------------------------------

let server: TestServer;
const timeByRoute = new Map<string, number>();
/** Routes that answered at least once with something other than 401 or 403. */
const pastTheGuard = new Set<string>();
let tokens: Record<Role, string>;
let known: Known;
let registered = 0;

async function register(extra: Record<string, unknown> = {}): Promise<{ token: string; userId: number }> {
  registered += 1;
  const email = `engang-${registered}@demo.se`;
  const response = await server.request('POST', '/api/auth/register-seller', {
    body: { full_name: `Engång ${registered}`, email, password: 'demo1234', group_code: 'BJK6B2', ...extra },
  });
  if (response.status !== 200) throw new Error(`registreringen misslyckades: ${response.status} ${await response.text()}`);
  const [row] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = ${email}`);
  return { token: ((await response.json()) as { token: string }).token, userId: Number(row!.id) };
}

/** A child under 13 in 6B and the code mailed to its guardian. */
async function childWithConsentCode(guardianEmail: string): Promise<{ userId: number; code: string }> {
  const { userId } = await register({ under_13: true, guardian_email: guardianEmail });
  const mail = await eventually(() =>
    server.mails().find((candidate) => candidate.to === guardianEmail && candidate.link?.includes('code=')),
  );
  return { userId, code: new URL(mail.link!).searchParams.get('code')! };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true, env: { LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent' } });
  const approved = await childWithConsentCode('vh.fuzz@demo.se');
  const consent = await server.request('POST', '/api/guardian/consent', {
    body: {
      code: approved.code,
      decision: 'approve',
      account: 'new',
      full_name: 'Vera Vårdnadshavare',
      email: 'vh.fuzz@demo.se',
      password: 'demo1234',
    },
  });
  if (consent.status !== 200) throw new Error(`samtycket misslyckades: ${consent.status} ${await consent.text()}`);
  const pending = await childWithConsentCode('vh.vantar@demo.se');
  tokens = {
    seller: await server.login('noah@demo.se'),
    groupAdmin: await server.login('larare@bjorkskolan.se'),
    superadmin: await server.login('admin@saljportalen.se'),
    guardian: ((await consent.json()) as { token: string }).token,
  };
  const numbers = async (query: ReturnType<typeof sql>) =>
    (await sqlRows<{ id: number }>(server.app.db, query)).map((row) => Number(row.id));
  known = {
    emails: ['noah@demo.se', 'elsa@demo.se', 'larare@bjorkskolan.se', 'admin@saljportalen.se', 'vh.fuzz@demo.se', 'vh.vantar@demo.se'],
    groupCodes: (await sqlRows<{ code: string }>(server.app.db, sql`select code from groups`)).map((row) => row.code),
    linkCodes: (await sqlRows<{ code: string }>(server.app.db, sql`select link_code as code from memberships order by id limit 8`)).map(
      (row) => row.code,
    ),
    consentCodes: [pending.code],
    tickets: await Promise.all(
      (['seller', 'groupAdmin', 'superadmin', 'guardian', 'seller', 'groupAdmin'] as const).map(async (role) => {
        const response = await server.request('POST', '/api/events/ticket', { token: tokens[role] });
        return ((await response.json()) as { ticket: string }).ticket;
      }),
    ),
    ids: {
      groups: await numbers(sql`select id from groups order by id`),
      users: await numbers(sql`select id from users order by id`),
      payouts: [...(await numbers(sql`select id from payouts order by id limit 5`)), 1],
      orders: [...(await numbers(sql`select id from orders order by id limit 5`)), 1],
      memberships: await numbers(sql`select id from memberships order by id limit 10`),
      webhooks: [...(await numbers(sql`select id from webhook_events order by id limit 5`)), 1],
      children: [approved.userId, pending.userId],
    },
  };
});
afterAll(() => server?.close());

function print(label: string, tally: Tally) {
  const statuses = [...tally.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status || 'ingen förbindelse'}: ${count}`);
  const fives = [...tally.byStatus.entries()]
    .filter(([status]) => status >= 500 || status === 0)
    .reduce((sum, [, count]) => sum + count, 0);
  console.log(
    `[fuzz] ${label}: ${tally.requests} förfrågningar, ${fives} 5xx eller avbrutna (seed ${SEED}, FUZZ_SEED=${SEED} upprepar) — per status ${statuses.join(', ')}`,
  );
}

describe('fuzzing every route', () => {
  const total: Tally = { requests: 0, byStatus: new Map(), failures: [] };

  it(
    'answers no request with a 5xx: every route, each role, generated and hostile bodies, queries, paths and headers',
    { timeout: 1_200_000 },
    async () => {
      const tally: Tally = { requests: 0, byStatus: new Map(), failures: [] };
      const routes = server.routes.filter((route) => route !== 'POST /api/webhooks/shopify' && !DESTRUCTIVE.has(route));
      const generating = performance.now();
      const requests = routes.flatMap((route, index) => {
        const schema = Object.fromEntries(
          Object.entries(server.routeSchemas.get(route) ?? {})
            .filter(([part]) => ['params', 'querystring', 'body'].includes(part))
            .map(([part, zod]) => [part, z.toJSONSchema(zod as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema]),
        );
        const count = isDrawing(route)
          ? PER_ROUTE.drawing
          : HASHING.has(route)
            ? PER_ROUTE.hashing
            : route.startsWith('HEAD ')
              ? PER_ROUTE.head
              : PER_ROUTE.plain;
        return fc.sample(requestsFor(route, schema, known), { seed: SEED + index, numRuns: count });
      });
      // Routes mixed, so that one route's writes meet another's reads.
      const shuffled = fc.sample(fc.shuffledSubarray(requests, { minLength: requests.length }), { seed: SEED, numRuns: 1 })[0]!;
      const sending = performance.now();
      await inParallel(shuffled, (request) => send(request, (role) => tokens[role], tally));
      if (process.env.FUZZ_LOG_LEVEL)
        console.log(`generated in ${Math.round(sending - generating)} ms, sent in ${Math.round(performance.now() - sending)} ms`);
      print('alla vägar', tally);
      if (process.env.FUZZ_LOG_LEVEL)
        console.log(
          [...timeByRoute]
            .sort(([, a], [, b]) => b - a)
            .slice(0, 15)
            .map(([route, ms]) => `${route} ${Math.round(ms)} ms`)
            .join('\n'),
        );
      merge(total, tally);
      expect(tally.failures).toEqual([]);
      // Sessions of every role, so that each route's own work ran, not only its guard.
      expect(routes.filter((route) => !pastTheGuard.has(route))).toEqual([]);
    },
  );

  it(
    'answers no signed Shopify webhook with a 5xx, whatever text its orders, refunds and products carry',
    { timeout: 1_200_000 },
    async () => {
      const tally: Tally = { requests: 0, byStatus: new Map(), failures: [] };
      const text = fc.oneof(hostileText, fc.constantFrom(...BROKEN_TEXT));
      const orderId = fc.integer({ min: 7_700_000_000_000, max: 7_700_000_000_100 });
      const order = fc
        .tuple(orderId, fc.constantFrom(...known.linkCodes, 'OKAND'), text, text, text, text)
        .map(([id, refCode, name, title, sku, note]) => {
          const payload = swedishOrder({
            id,
            refCode,
            name,
            discountCodes: [note],
            lineItems: [{ id: id * 10, productId: 1, sku, title, price: '149.00', quantity: 1 }],
          }) as Record<string, unknown>;
          payload.note_attributes = [
            { name: 'ref', value: refCode },
            { name: note, value: title },
          ];
          payload.landing_site = `/?ref=${name}`;
          return { topic: 'orders/create', body: JSON.stringify(payload) };
        });
      const product = fc.tuple(fc.integer({ min: 1, max: 50 }), text, text, text, text).map(([id, title, html, sku, src]) => ({
        topic: 'products/update',
        body: JSON.stringify({ id, title, body_html: html, status: 'active', variants: [{ sku, price: '49.00' }], images: [{ src }] }),
      }));
      const refund = fc.tuple(orderId, fc.integer({ min: 1, max: 1_000_000 }), text).map(([id, refundId, note]) => {
        const payload = swedishRefund({
          id: refundId,
          orderId: id,
          lines: [{ id: refundId * 10, lineItemId: id * 10, quantity: 1 }],
        }) as Record<string, unknown>;
        payload.note = note;
        return { topic: 'refunds/create', body: JSON.stringify(payload) };
      });
      const anything = fc
        .tuple(
          fc.oneof(fc.constantFrom('orders/create', 'products/create', 'app/uninstalled'), headerText),
          fc.oneof(hostileJson, deepNesting),
        )
        .map(([topic, body]) => ({ topic: topic.replace(/[^\x21-\x7e]/g, '') || 'x', body }));
      const deliveries = fc.sample(
        fc.tuple(
          fc.oneof(
            { weight: 3, arbitrary: order },
            { weight: 2, arbitrary: product },
            { weight: 2, arbitrary: refund },
            { weight: 1, arbitrary: anything },
          ),
          fc.oneof(fc.uuid(), headerText),
        ),
        { seed: SEED, numRuns: PER_ROUTE.webhook },
      );
      await inParallel(deliveries, async ([{ topic, body }, webhookId]) => {
        const request: Request = {
          route: 'POST /api/webhooks/shopify',
          method: 'POST',
          path: '/api/webhooks/shopify',
          authorization: null,
          headers: {
            'x-shopify-topic': topic,
            'x-shopify-webhook-id': webhookId || 'x',
            'x-shopify-hmac-sha256': signShopifyWebhook(body, TEST_WEBHOOK_SECRET),
          },
          body: json(body),
        };
        await send(request, () => '', tally);
      });
      print('Shopify-webhooken', tally);
      merge(total, tally);
      expect(tally.failures).toEqual([]);
    },
  );

  it('answers no request with a 5xx on the calls that end a session, each run on throwaway accounts', { timeout: 1_200_000 }, async () => {
    const tally: Tally = { requests: 0, byStatus: new Map(), failures: [] };
    // The fuzz above may have archived 6B, where the throwaway accounts register.
    const sixB = await server.request('POST', `/api/admin/group/${await groupIdByCode(server.app.db, 'BJK6B2')}/archive`, {
      token: tokens.superadmin,
      body: { archived: false },
    });
    expect(sixB.status).toBe(200);
    let throwaway = await register();
    const throwawayIds = [throwaway.userId];
    const requests = [...DESTRUCTIVE].flatMap((route, index) => {
      const schema = Object.fromEntries(
        Object.entries(server.routeSchemas.get(route) ?? {})
          .filter(([part]) => ['params', 'querystring', 'body'].includes(part))
          .map(([part, zod]) => [part, z.toJSONSchema(zod as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema]),
      );
      return fc.sample(requestsFor(route, schema, known), { seed: SEED + 1000 + index, numRuns: PER_ROUTE.destructive });
    });
    // One at a time: a call that ends its session is followed by a new throwaway account.
    for (const request of fc.sample(fc.shuffledSubarray(requests, { minLength: requests.length }), { seed: SEED, numRuns: 1 })[0]!) {
      const erasing = request.route === 'POST /api/admin/users/:userId/erase';
      // The superadmin erases throwaway accounts (and ids that are no account), never the accounts the other calls use.
      if (erasing && /\/users\/\d+\//.test(request.path))
        request.path = request.path.replace(/\/users\/\d+\//, `/users/${throwawayIds.at(-1)}/`);
      const status = await send(request, (role) => (erasing && role === 'superadmin' ? tokens.superadmin : throwaway.token), tally);
      if (status >= 200 && status < 300) {
        throwaway = await register();
        throwawayIds.push(throwaway.userId);
      }
    }
    print('vägar som avslutar en session', tally);
    merge(total, tally);
    print('totalt', total);
    expect(tally.failures).toEqual([]);
    expect(total.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });
});

function merge(into: Tally, from: Tally) {
  into.requests += from.requests;
  for (const [status, count] of from.byStatus) into.byStatus.set(status, (into.byStatus.get(status) ?? 0) + count);
}
