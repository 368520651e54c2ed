/**
 * Issue 8, hostile input: every JSON endpoint of the route table (and every query string, and the
 * Shopify webhook with valid signatures) gets random and hostile requests (wrong types, huge
 * strings, odd unicode, nulls, prototype-pollution keys, broken JSON, odd ids in the path), from
 * a fixed seed and a fixed number of cases. No answer may be a 5xx, and afterwards the ledger's
 * invariants hold and no prototype was polluted. Also the group-code insertion under collisions.
 */
import crypto from 'node:crypto';
import fc from 'fast-check';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertGroupWithUniqueCode } from '../src/modules/groups/group-code.js';
import { errorsPlugin } from '../src/plugins/errors.js';
import { signShopifyWebhook } from '../src/modules/shopify/webhook-signature.js';
import { groupIdByCode, membershipOf, sqlRows } from './admin-fixtures.js';
import { ledgerViolations } from './ledger-invariants.js';
import { TEST_WEBHOOK_SECRET, swedishOrder, swedishRefund } from './shopify-webhooks.js';
import { startTestServer, type TestServer } from './test-server.js';

const SEED = 20_261_122;
const CASES_PER_BODY_ROUTE = 40;
const CASES_PER_QUERY_ROUTE = 15;
const WEBHOOK_CASES = 150;

/** A JSON object kept as its entries, so that keys like `__proto__` reach the text as keys. */
class JsonObject {
  constructor(readonly entries: [string, Hostile][]) {}
}
type Hostile = string | number | boolean | null | Hostile[] | JsonObject;

function toJson(value: Hostile): string {
  if (value instanceof JsonObject) return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  return JSON.stringify(value);
}
const fromPlain = (value: unknown): Hostile =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? new JsonObject(Object.entries(value).map(([key, item]) => [key, fromPlain(item)]))
    : Array.isArray(value)
      ? value.map(fromPlain)
      : (value as Hostile);

const FIELD_NAMES = [
  'email',
  'password',
  'full_name',
  'group_code',
  'code',
  'new_password',
  'current_password',
  'new_email',
  'phone',
  'group_id',
  'show_leaderboard',
  'group_name',
  'admin',
  'role',
  'archived',
  'name',
  'from',
  'to',
  'auto_archive',
  'status',
  'membership_id',
];
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];

const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\uD800',
      "' OR 1=1 --",
      "'; drop table users; --",
      '<script>alert(1)</script>',
      '=HYPERLINK("http://x")',
      '../../../etc/passwd',
      '${7*7}',
      '{{7*7}}',
      '%00',
      'null',
      'true',
      '1e309',
      '-0',
      'ÅÄÖ åäö',
      '🙂👨‍👩‍👧',
      '\u202Eevil',
      'a@b',
      'elsa@demo.se',
      ' ELSA@DEMO.SE ',
      'BJK6B2',
      'bjk6b2',
      '2025-02-30',
      '0000-00-00',
      '9999-12-31',
      'paid',
      'admin',
      'open',
    ),
  },
  // Huge: up to 600 kB of UTF-8, over the 1 MB body limit once or twice in a body.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'å'.repeat(length)) },
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, 5e-324),
);
const hostileKey = fc.oneof(fc.constantFrom(...FIELD_NAMES, ...POLLUTION_KEYS), fc.string({ maxLength: 12 }));
const { value: hostileValue } = fc.letrec<{ value: Hostile; array: Hostile[]; object: JsonObject }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, hostileText, hostileNumber, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 5 }).map((entries) => new JsonObject(entries)),
}));
/** What a prototype-pollution attempt puts under `__proto__` or `constructor.prototype`. */
const pollution = fc.constantFrom<Hostile>(
  new JsonObject([
    ['isSuperadmin', true],
    ['is_superadmin', true],
    ['role', 'admin'],
  ]),
  new JsonObject([['prototype', new JsonObject([['isSuperadmin', true]])]]),
);

interface Body {
  text: string;
  contentType: string;
}
const json = (text: string): Body => ({ text, contentType: 'application/json' });

/** Hostile bodies for a route, some of them near its valid body so they get past the first checks. */
function hostileBody(valid: Record<string, unknown> | undefined): fc.Arbitrary<Body> {
  const base = fromPlain(valid ?? {}) as JsonObject;
  const mutated = fc
    .tuple(
      fc.oneof(fc.constantFrom(...base.entries.map(([key]) => key), ...POLLUTION_KEYS), hostileKey),
      hostileValue,
      pollution,
      fc.boolean(),
    )
    .map(([key, value, polluting, drop]) => {
      const entries = base.entries.filter(([existing]) => existing !== key || !drop);
      const replaced = entries.map(([existing, item]): [string, Hostile] => [existing, existing === key ? value : item]);
      if (!entries.some(([existing]) => existing === key)) replaced.push([key, POLLUTION_KEYS.includes(key) ? polluting : value]);
      return json(toJson(new JsonObject(replaced)));
    });
  const validText = toJson(base);
  const broken = fc.oneof(
    fc.nat(validText.length).map((cut) => json(validText.slice(0, cut))),
    fc.integer({ min: 1, max: 100_000 }).map((depth) => json('['.repeat(depth) + ']'.repeat(depth))),
    fc.integer({ min: 1, max: 50_000 }).map((depth) => json('{"a":'.repeat(depth) + '1' + '}'.repeat(depth))),
    fc.string().map(json),
    // The same key twice: the last one wins in JSON.parse, which must not smuggle a second value past the checks.
    fc
      .tuple(hostileKey, hostileValue)
      .map(([key, value]) => json(`${validText.slice(0, -1)}${base.entries.length ? ',' : ''}"${key}":${toJson(value)}}`)),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=latin1',
      )
      .map((contentType) => ({ text: validText, contentType })),
  );
  return fc.oneof(
    { weight: 3, arbitrary: mutated },
    { weight: 2, arbitrary: hostileValue.map((value) => json(toJson(value))) },
    { weight: 2, arbitrary: broken },
  );
}

/** Ids for a path parameter: real ones, and everything an id is not. */
const hostileId = (real: number[]) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...real.map(String)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x10',
        '%E0%A4%A',
        '2147483648',
        '99999999999999999999',
        'abc',
        '%00',
        '..%2F..',
        "1'--",
        '%F0%9F%99%82',
        ' 1',
        'null',
      ),
    },
  );

let server: TestServer;
let tokens: { seller: string; groupAdmin: string; superadmin: string };
let ids: { groups: number[]; users: number[]; payouts: number[]; orders: number[]; memberships: number[] };
let linkCodes: string[];
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  tokens = {
    seller: await server.login('noah@demo.se'),
    groupAdmin: await server.login('larare@bjorkskolan.se'),
    superadmin: await server.login('admin@saljportalen.se'),
  };
  const numbers = async (query: ReturnType<typeof sql>) =>
    (await sqlRows<{ id: number }>(server.app.db, query)).map((row) => Number(row.id));
  ids = {
    groups: await numbers(sql`select id from groups order by id`),
    users: await numbers(sql`select id from users order by id limit 5`),
    payouts: await numbers(sql`select id from payouts order by id`),
    orders: await numbers(sql`select id from orders order by id limit 5`),
    memberships: await numbers(sql`select id from memberships order by id limit 5`),
  };
  linkCodes = (await sqlRows<{ link_code: string }>(server.app.db, sql`select link_code from memberships order by id limit 8`)).map(
    (row) => row.link_code,
  );
});
afterAll(() => server.close());

/** A body each JSON endpoint accepts, the starting point of the near-valid hostile ones. */
async function validBodies(): Promise<Record<string, Record<string, unknown>>> {
  const group = await groupIdByCode(server.app.db, 'BJK6B2');
  const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
  return {
    'POST /api/auth/login': { email: 'elsa@demo.se', password: 'demo1234' },
    'POST /api/auth/register-seller': { full_name: 'Fuzz Elev', email: 'fuzz@demo.se', password: 'hemligt123', group_code: 'BJK6B2' },
    'POST /api/auth/forgot-password': { email: 'elsa@demo.se' },
    'POST /api/auth/reset-password/verify': { code: 'x'.repeat(43) },
    'POST /api/auth/reset-password': { code: 'x'.repeat(43), new_password: 'nytt-losen-123' },
    'POST /api/account/profile': { full_name: 'Noah Nilsson', phone: '070-123 45 67' },
    'POST /api/account/change-password': { current_password: 'fel-lösenord', new_password: 'nytt-losen-123' },
    'POST /api/account/change-email': { current_password: 'fel-lösenord', new_email: 'noah.ny@demo.se' },
    'POST /api/account/switch-group': { group_id: group },
    'POST /api/group/settings': { group_id: group, show_leaderboard: true },
    'POST /api/admin/groups/create': {
      group_name: 'Fuzzgruppen',
      admin: { email: 'fuzzadmin@demo.se', password: 'hemligt123', full_name: 'Fuzz Admin' },
    },
    'POST /api/admin/groups/:id/add-user': { email: 'fuzzelev@demo.se', role: 'seller', full_name: 'Fuzz Elev' },
    'PATCH /api/admin/group/:id': { archived: false, name: 'Fuzz' },
    'POST /api/admin/group/:id/archive': { archived: false },
    'POST /api/admin/group/:id/rename': { name: 'Fuzz' },
    'POST /api/admin/payouts': { group_id: group, from: '2020-01-01', to: '2099-12-31', auto_archive: false },
    'PATCH /api/admin/payouts/:id': { status: 'paid' },
    'PUT /api/admin/groups/:id/payout-account': {
      kind: 'bank',
      clearing_number: '6000',
      account_number: '123 456 789',
      holder_name: 'Fuzzskolan',
    },
    'POST /api/admin/orders/:id/assign': { membership_id: noah.id },
    'POST /api/group/orders/:id/move': { to_membership_id: noah.id, reason: 'Fel länk' },
  };
}

/** Query parameters the list calls read, and hostile values for them. */
const QUERY_NAMES = [
  'status',
  'q',
  'from',
  'to',
  'group_id',
  'sort',
  'page',
  'page_size',
  'order',
  'limit',
  '__proto__',
  'constructor[prototype][x]',
];
const hostileQuery = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })), fc.oneof(hostileText, hostileNumber.map(String))),
    { maxLength: 4 },
  )
  // Hostile, yet short enough for a request line: an oversized request is Node's HTTP parser's to refuse.
  .map((pairs) => new URLSearchParams(pairs.map(([name, value]): [string, string] => [name, value.slice(0, 300)])).toString());

// Logout goes without a bearer token, as the web sends it: with one it would end that token's
// session (decision 013), and the seller's token would be refused by every later call.
const tokenFor = (route: string) =>
  route === 'POST /api/auth/logout'
    ? undefined
    : route.includes(' /api/admin/')
      ? tokens.superadmin
      : route.includes(' /api/group/settings')
        ? tokens.groupAdmin
        : tokens.seller;

function pathFor(route: string): fc.Arbitrary<string> {
  const pattern = route.split(' ')[1]!;
  const params = pattern.match(/:\w+/g) ?? [];
  const valuesFor = (name: string) =>
    pattern.startsWith('/s/')
      ? fc.oneof(
          fc.constantFrom(...linkCodes),
          hostileText.map((text) => encodeURIComponent(text.slice(0, 300))),
        )
      : hostileId(realIds(pattern, name));
  if (params.length === 0) return fc.constant(pattern);
  return fc
    .tuple(...params.map(valuesFor))
    .map((values) => params.reduce((path, name, index) => path.replace(name, values[index]!), pattern));
}

/** The real ids a path parameter of the route takes. */
const realIds = (pattern: string, name: string) =>
  name === ':userId' ? ids.users : pattern.includes('/payouts/') ? ids.payouts : pattern.includes('/orders/') ? ids.orders : ids.groups;

/** The route's path with `value` (by default a real id or link code) in each parameter. */
function pathWith(route: string, value?: string): string {
  const pattern = route.split(' ')[1]!;
  return pattern.replace(/:\w+/g, (name) => value ?? (pattern.startsWith('/s/') ? linkCodes[0]! : String(realIds(pattern, name)[0])));
}

const failures: string[] = [];

async function send(method: string, path: string, token: string | undefined, body?: Body): Promise<void> {
  const response = await fetch(server.url + path, {
    method,
    redirect: 'manual',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': body.contentType } : {}) },
    body: body?.text,
  });
  const text = await response.text();
  const where = `${method} ${path.slice(0, 200)} → ${response.status}`;
  if (response.status >= 500) failures.push(`${where} ${text.slice(0, 300)} ← ${body?.text.slice(0, 300) ?? ''}`);
  else if (response.status >= 400 && response.headers.get('content-type')?.includes('application/json')) {
    const error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
    if (typeof error?.code !== 'string' || !error.message) failures.push(`${where} utan {error: {code, message}}: ${text.slice(0, 300)}`);
  }
}

describe('hostile input', () => {
  it('never answers 5xx to random and hostile bodies, query strings and path ids on any route', { timeout: 600_000 }, async () => {
    failures.length = 0;
    const valid = await validBodies();
    const routes = server.routes.filter((route) => !route.startsWith('HEAD ') && route !== 'POST /api/webhooks/shopify');
    for (const [index, route] of routes.entries()) {
      const method = route.split(' ')[0]!;
      const hasBody = method === 'POST' || method === 'PATCH';
      const request = fc.tuple(pathFor(route), hasBody ? hostileBody(valid[route]) : fc.constant(undefined), hostileQuery);
      await fc.assert(
        fc.asyncProperty(request, async ([path, body, query]) => {
          await send(method, hasBody ? path : `${path}?${query}`, tokenFor(route), body);
        }),
        { seed: SEED + index, numRuns: hasBody ? CASES_PER_BODY_ROUTE : CASES_PER_QUERY_ROUTE },
      );
    }
    expect(failures).toEqual([]);
  });

  it('never answers 5xx to signed webhooks with odd topics, broken payloads and twisted orders', { timeout: 600_000 }, async () => {
    failures.length = 0;
    const topic = fc.oneof(
      fc.constantFrom(
        'orders/create',
        'orders/updated',
        'orders/paid',
        'orders/cancelled',
        'refunds/create',
        'products/create',
        'products/update',
        'products/delete',
      ),
      hostileText.map((text) => text.slice(0, 100).replace(/[^\x21-\x7e]/g, '') || 'x'),
    );
    const orderId = fc.integer({ min: 7_700_000_000_000, max: 7_700_000_000_040 });
    // Shopify-shaped orders with one field twisted: the recording must refuse or record them, never half.
    const twistedOrder = fc
      .tuple(
        orderId,
        fc.constantFrom(...linkCodes, 'OKAND'),
        fc.oneof(
          fc.constantFrom(
            'line_items',
            'total_price',
            'created_at',
            'updated_at',
            'refunds',
            'id',
            'note_attributes',
            'currency',
            'cancelled_at',
            'name',
            'financial_status',
            'landing_site',
          ),
          fc.constantFrom('quantity', 'price', 'id', 'discount_allocations', 'tax_lines', 'title', 'sku').map((field) => `line:${field}`),
        ),
        hostileValue,
        fc.nat(2),
      )
      .map(([id, refCode, field, value, lineIndex]) => {
        const order = swedishOrder({ id, refCode, updatedAt: `2026-03-10T14:${String(id % 60).padStart(2, '0')}:00+01:00` }) as Record<
          string,
          unknown
        >;
        const lines = order.line_items as Record<string, unknown>[];
        if (field.startsWith('line:')) lines[lineIndex] = { ...lines[lineIndex], [field.slice(5)]: value };
        else order[field] = value;
        return toJson(fromPlain(order));
      });
    const refund = fc
      .tuple(orderId, fc.integer({ min: 1, max: 1_000_000 }), fc.oneof(fc.integer({ min: -5, max: 5 }), hostileNumber))
      .map(([id, refundId, quantity]) =>
        JSON.stringify(
          swedishRefund({ id: refundId, orderId: id, lines: [{ id: refundId * 10, lineItemId: 7_200_000_000_001, quantity }] }),
        ),
      );
    const payload = fc.oneof(
      { weight: 3, arbitrary: twistedOrder },
      { weight: 2, arbitrary: orderId.map((id) => JSON.stringify(swedishOrder({ id, refCode: linkCodes[id % linkCodes.length]! }))) },
      { weight: 2, arbitrary: refund },
      { weight: 2, arbitrary: hostileValue.map(toJson) },
      { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    );
    await fc.assert(
      fc.asyncProperty(topic, payload, fc.boolean(), async (chosenTopic, body, redeliver) => {
        const webhookId = redeliver ? 'fuzz-samma-leverans' : crypto.randomUUID();
        const response = await fetch(`${server.url}/api/webhooks/shopify`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': chosenTopic,
            'x-shopify-webhook-id': webhookId,
            'x-shopify-hmac-sha256': signShopifyWebhook(body, TEST_WEBHOOK_SECRET),
          },
          body,
        });
        const text = await response.text();
        if (response.status >= 500)
          failures.push(`webhook ${chosenTopic} → ${response.status} ${text.slice(0, 300)} ← ${body.slice(0, 300)}`);
        // Stored means answered 200, refused means not stored: a stored event answered 4xx would be
        // redelivered by Shopify, and refused again, forever (issue 15).
        if (!redeliver) {
          const stored = (await sqlRows(server.app.db, sql`select 1 from webhook_events where webhook_id = ${webhookId}`)).length > 0;
          if (stored !== (response.status === 200))
            failures.push(`webhook ${chosenTopic} → ${response.status}, ${stored ? 'sparad' : 'inte sparad'} ← ${body.slice(0, 300)}`);
        }
      }),
      { seed: SEED, numRuns: WEBHOOK_CASES },
    );
    // A payout over whatever arrived, so that the invariants below cover settled lines too.
    for (const groupId of ids.groups) {
      await send(
        'POST',
        '/api/admin/payouts',
        tokens.superadmin,
        json(JSON.stringify({ group_id: groupId, from: '2020-01-01', to: '2099-12-31', auto_archive: false })),
      );
    }
    expect(failures).toEqual([]);
  });

  it('leaves the ledger sound, no prototype polluted, and the server answering as before', async () => {
    expect(await ledgerViolations(server.app.db)).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).isSuperadmin).toBeUndefined();
    const [superadmins] = await sqlRows<{ count: number }>(
      server.app.db,
      sql`select count(*)::int as count from users where is_superadmin`,
    );
    expect(superadmins!.count).toBe(1);
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    expect((await server.request('GET', '/api/me/summary', { token: tokens.superadmin })).status).toBe(200);
  });
});

/** Each string of a body (nested ones too), one at a time, with `character` (by default NUL) inside it. */
function withNulInEachString(body: Record<string, unknown>, character = '\u0000'): { field: string; body: Record<string, unknown> }[] {
  return Object.entries(body).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [{ field: key, body: { ...body, [key]: `${value.slice(0, 2)}${character}${value.slice(2)}` } }]
      : value !== null && typeof value === 'object'
        ? withNulInEachString(value as Record<string, unknown>, character).map((inner) => ({
            field: `${key}.${inner.field}`,
            body: { ...body, [key]: inner.body },
          }))
        : [],
  );
}

/** Status and error of an answer, for comparing whole answers at once. */
async function answerOf(response: Response) {
  const text = await response.text();
  return { status: response.status, error: response.status >= 400 ? (JSON.parse(text) as { error: unknown }).error : text.slice(0, 200) };
}

const NUL_REFUSED = { status: 400, error: { code: 'VALIDATION', message: 'Texten innehåller ett otillåtet tecken' } };

describe('NUL characters, which PostgreSQL refuses to store', () => {
  it('are refused with a Swedish 400 in every string field of every JSON body', async () => {
    const answers: Record<string, unknown> = {};
    const bodies = await validBodies();
    // Phone numbers are optional: given here, so that they are checked too.
    bodies['POST /api/admin/groups/:id/add-user']!.phone = '070-123 45 67';
    (bodies['POST /api/admin/groups/create']!.admin as Record<string, unknown>).phone = '070-123 45 67';
    for (const [route, body] of Object.entries(bodies)) {
      const [method, pattern] = route.split(' ') as [string, string];
      for (const variant of withNulInEachString(body)) {
        const response = await server.request(method, pathWith(route), { token: tokenFor(route), body: variant.body });
        answers[`${method} ${pattern} ${variant.field}`] = await answerOf(response);
      }
    }
    // The fields of the issue among them: group name, rename, add-user name and phone, profile, registration, login.
    expect(Object.keys(answers)).toEqual(
      expect.arrayContaining([
        'POST /api/admin/groups/create group_name',
        'POST /api/admin/group/:id/rename name',
        'POST /api/admin/groups/:id/add-user full_name',
        'POST /api/admin/groups/:id/add-user phone',
        'POST /api/admin/groups/create admin.phone',
        'POST /api/account/profile full_name',
        'POST /api/auth/register-seller group_code',
        'POST /api/auth/login email',
      ]),
    );
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((key) => [key, NUL_REFUSED])));
  });

  it('are refused with a Swedish 400 in the query string of every API call', async () => {
    const answers: Record<string, unknown> = {};
    const routes = server.routes.filter((route) => route.startsWith('GET /api/'));
    for (const route of routes) {
      answers[route] = await answerOf(await server.request('GET', `${pathWith(route)}?q=a%00b`, { token: tokenFor(route) }));
    }
    answers['GET /api/admin/groups?q=%00'] = await answerOf(
      await server.request('GET', '/api/admin/groups?q=%00', { token: tokens.superadmin }),
    );
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((key) => [key, NUL_REFUSED])));
    // Untouched, the same calls answer.
    expect((await server.request('GET', '/api/admin/groups?q=bj', { token: tokens.superadmin })).status).toBe(200);
  });

  it('answers 400, not 500, should such text reach PostgreSQL after all', async () => {
    const probe = Fastify({ logger: false });
    await probe.register(errorsPlugin);
    probe.get('/text', () => server.app.db.execute(sql`select ${'a\u0000b'}::text as value`));
    probe.get('/jsonb', () => server.app.db.execute(sql`select ${'{"a":"\\u0000"}'}::jsonb as value`));
    try {
      for (const url of ['/text', '/jsonb']) {
        const response = await probe.inject({ method: 'GET', url });
        expect({ url, status: response.statusCode, body: response.json() }).toEqual({
          url,
          status: 400,
          body: { error: { code: 'BAD_REQUEST', message: 'Texten innehåller ett otillåtet tecken' } },
        });
      }
    } finally {
      await probe.close();
    }
  });
});

describe('lone surrogates, which jsonb refuses (issue 28)', () => {
  // JSON's escapes make them: `"\ud800"` parses to half a character, which no UTF-8 text holds.
  const LONE = ['\ud800', '\udfff', '\udc00\ud800'];

  it('are refused with a Swedish 400 in every string field of every JSON body, a group rename and a goal’s purpose among them', async () => {
    const answers: Record<string, unknown> = {};
    const bodies = await validBodies();
    bodies['POST /api/admin/groups/:id/add-user']!.phone = '070-123 45 67';
    for (const [route, body] of Object.entries(bodies)) {
      const [method, pattern] = route.split(' ') as [string, string];
      for (const [index, character] of LONE.entries()) {
        for (const variant of withNulInEachString(body, character)) {
          const response = await server.request(method, pathWith(route), { token: tokenFor(route), body: variant.body });
          answers[`${method} ${pattern} ${variant.field} ${index}`] = await answerOf(response);
        }
      }
    }
    const group = await groupIdByCode(server.app.db, 'BJK6B2');
    for (const [index, character] of LONE.entries()) {
      const goal = { group_id: group, amount: 15_000, purpose: `Klassresa${character}`, ends_on: '2099-06-01' };
      answers[`POST /api/group/goal purpose ${index}`] = await answerOf(
        await server.request('POST', '/api/group/goal', { token: tokens.groupAdmin, body: goal }),
      );
      // In a key, too: no schema looks at the keys it does not know. (JSON.stringify writes the escape.)
      answers[`POST /api/account/profile key ${index}`] = await answerOf(
        await server.request('POST', '/api/account/profile', {
          token: tokens.seller,
          body: `{"full_name":"Noah",${JSON.stringify(`x${character}`)}:1}`,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }
    expect(Object.keys(answers)).toEqual(
      expect.arrayContaining([
        'POST /api/admin/group/:id/rename name 0',
        'PATCH /api/admin/group/:id name 0',
        'POST /api/group/goal purpose 0',
      ]),
    );
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((key) => [key, NUL_REFUSED])));
    // Nothing of them was stored: the group keeps its name, no audit entry holds one.
    const [stored] = await sqlRows<{ name: string }>(server.app.db, sql`select name from groups where id = ${group}`);
    expect(stored!.name).not.toMatch(/[\ud800-\udfff]/);
  });

  it('answer 400, not 500, should one reach jsonb after all', async () => {
    const probe = Fastify({ logger: false });
    await probe.register(errorsPlugin);
    probe.get('/jsonb', () => server.app.db.execute(sql`select ${JSON.stringify({ a: '\ud800' })}::jsonb as value`));
    try {
      const response = await probe.inject({ method: 'GET', url: '/jsonb' });
      expect({ status: response.statusCode, body: response.json() }).toEqual({
        status: 400,
        body: { error: { code: 'BAD_REQUEST', message: 'Texten innehåller ett otillåtet tecken' } },
      });
    } finally {
      await probe.close();
    }
  });
});

describe('ids beyond PostgreSQL integer (2^31 - 1)', () => {
  const HUGE = 2 ** 31;

  it('are refused with a Swedish 400 in bodies, query strings and paths', async () => {
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    const refused = (message: string) => ({ status: 400, error: expect.objectContaining({ code: 'VALIDATION', message }) });

    for (const [route, body] of Object.entries(await validBodies())) {
      const [method] = route.split(' ') as [string];
      for (const field of Object.keys(body).filter((key) => key.endsWith('_id'))) {
        const response = await server.request(method, pathWith(route), { token: tokenFor(route), body: { ...body, [field]: HUGE } });
        answers[`${route} ${field}`] = await answerOf(response);
        expected[`${route} ${field}`] = refused(
          field === 'membership_id'
            ? 'Välj en säljare'
            : field === 'to_membership_id'
              ? 'Välj eleven som sålde'
              : route === 'POST /api/admin/payouts'
                ? 'Ogiltig grupp'
                : 'Ogiltigt id',
        );
      }
    }
    const user = ids.users[0]!;
    for (const path of ['/api/admin/sellers', `/api/admin/seller/${user}/orders`, '/api/admin/payouts']) {
      answers[`GET ${path}?group_id`] = await answerOf(
        await server.request('GET', `${path}?group_id=${HUGE}`, { token: tokens.superadmin }),
      );
      expected[`GET ${path}?group_id`] = refused('Ogiltigt id');
    }
    const withParams = server.routes.filter((route) => route.includes('/api/') && route.includes('/:') && !route.startsWith('HEAD '));
    for (const route of withParams) {
      const [method] = route.split(' ') as [string];
      const body = method === 'GET' ? undefined : ((await validBodies())[route] ?? {});
      answers[route] = await answerOf(await server.request(method, pathWith(route, String(HUGE)), { token: tokenFor(route), body }));
      expected[route] = refused(route.includes('/api/guardian/children/:id') ? 'Ogiltigt id för barnet' : 'Ogiltigt id');
    }

    expect(Object.keys(answers)).toEqual(
      expect.arrayContaining([
        'POST /api/admin/orders/:id/assign membership_id',
        'POST /api/account/switch-group group_id',
        'POST /api/group/settings group_id',
        'POST /api/admin/payouts group_id',
      ]),
    );
    expect(answers).toEqual(expected);
  });
});

describe('group codes under collisions (property)', () => {
  it('takes the first free code after any number of taken ones below the limit, and gives up past it', async () => {
    const taken = (await sqlRows<{ code: string }>(server.app.db, sql`select code from groups`)).map((row) => row.code);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...taken), { maxLength: 12 }),
        fc.stringMatching(/^[2-9A-HJKMNP-TW-Z]{6}$/),
        async (collisions, fresh) => {
          fc.pre(!taken.includes(fresh));
          const codes = [...collisions, fresh];
          const attempt = insertGroupWithUniqueCode(server.app.db, { name: 'Kodprov', nextCode: () => codes.shift()! });
          if (collisions.length < 10) {
            const group = await attempt;
            expect(group.code).toBe(fresh);
            taken.push(fresh);
          } else {
            await expect(attempt).rejects.toThrow(/ingen ledig gruppkod efter 10 försök/);
          }
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  });
});
