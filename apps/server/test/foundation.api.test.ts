/**
 * The foundation, on the real server as a child process (what `npm start` runs): a seller who
 * registered is still there after a restart on the same data; bad requests get a Swedish 4xx
 * and leave no stack trace in the log; SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD and SEED_DEMO=0
 * give an empty portal with its superadmin, on every start.
 */
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, inspectDatabase, serverDataFolder, spawnServer, type SpawnedServer } from './spawned-server.js';

const serverData = serverDataFolder('sp-foundation-');
let port: number;

const freshData = serverData.fresh;

beforeAll(async () => {
  port = await freePort();
});
afterAll(() => serverData.dispose());

function send(server: SpawnedServer, method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) {
  const { body, token } = options;
  return fetch(server.url + urlPath, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The claims of an access token: its middle part is base64url-encoded JSON. */
function claimsOf(token: string): Record<string, unknown> {
  const middle = token.split('.')[1]!;
  expect(middle).toMatch(/^[A-Za-z0-9_-]+$/);
  return JSON.parse(Buffer.from(middle, 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function tokenOf(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  const { exp } = claimsOf(token);
  expect(exp).toBeTypeOf('number');
  expect(exp).toBeGreaterThan(Date.now() / 1000);
  return token;
}

/**
 * POSTs a body of `size` bytes and reads the answer. The server refuses on the announced length
 * and closes the connection; a client still writing the rest (fetch) fails with EPIPE instead of
 * showing that answer. So the first 64 KB go at once, and the rest only if no answer has come
 * within a few seconds (a server that reads the whole body first).
 */
function sendTooLarge(server: SpawnedServer, urlPath: string, size: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(server.url + urlPath, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': size },
    });
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode!, body: JSON.parse(text) as unknown });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const first = Math.min(size, 64 * 1024);
    request.write(Buffer.alloc(first, 'x'));
    setTimeout(() => {
      if (!answered) request.end(Buffer.alloc(size - first, 'x'));
    }, 5000);
  });
}

async function stop(server: SpawnedServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

describe('a seller and a restart', () => {
  it(
    'registers with a group code, and signs in again after the server is stopped and started on the same data',
    { timeout: 180_000 },
    async () => {
      const data = await freshData('restart');
      const seller = { full_name: 'Greta Grön', email: 'greta.gron@exempel.se', password: 'Hemligt-Greta-1', group_code: 'BJK6B2' };

      const first = await spawnServer({ port, data });
      try {
        await tokenOf(await send(first, 'POST', '/api/auth/register-seller', { body: seller }));
      } finally {
        await stop(first);
      }

      const second = await spawnServer({ port, data });
      try {
        const token = await tokenOf(
          await send(second, 'POST', '/api/auth/login', { body: { email: seller.email, password: seller.password } }),
        );
        const groups = (await (await send(second, 'GET', '/api/account/groups', { token })).json()) as { groups: { group_code: string }[] };
        expect(groups.groups.map((group) => group.group_code)).toEqual(['BJK6B2']);
      } finally {
        await stop(second);
      }
    },
  );
});

describe('bad requests', () => {
  it('get a Swedish 4xx each, and the log no stack trace', { timeout: 180_000 }, async () => {
    const server = await spawnServer({ port, data: await freshData('refusals'), env: { LOG_LEVEL: 'info' } });
    const answerOf = async (response: Response) => ({ status: response.status, body: await response.json() });
    const register = (group_code: string) =>
      send(server, 'POST', '/api/auth/register-seller', {
        body: { full_name: 'Test Testsson', email: 'test.testsson@exempel.se', password: 'Hemligt-Test-1', group_code },
      });
    let answers: Record<string, unknown>;
    try {
      answers = {
        wrongPassword: await answerOf(
          await send(server, 'POST', '/api/auth/login', { body: { email: 'elsa@demo.se', password: 'fel-lösenord' } }),
        ),
        unknownGroupCode: await answerOf(await register('FINNSEJ')),
        malformedJson: await answerOf(await send(server, 'POST', '/api/auth/login', { body: '{"email":' })),
        tenMegabytes: await sendTooLarge(server, '/api/auth/login', 10 * 1024 * 1024),
        sqlInEmail: await answerOf(
          await send(server, 'POST', '/api/auth/login', { body: { email: "' OR 1=1 --@x.se", password: "'; drop table users; --" } }),
        ),
        sqlInPassword: await answerOf(
          await send(server, 'POST', '/api/auth/login', { body: { email: 'elsa@demo.se', password: "' OR '1'='1" } }),
        ),
        sqlInGroupCode: await answerOf(await register("' OR 1=1 --")),
      };
    } finally {
      await stop(server);
    }

    const wrongCredentials = { status: 401, body: { error: { code: 'INVALID_CREDENTIALS', message: 'Fel e-postadress eller lösenord' } } };
    const unknownGroupMessage = 'Okänd gruppkod. Kontrollera koden med din lärare eller ledare.';
    const unknownGroup = {
      status: 400,
      body: {
        error: { code: 'VALIDATION', message: unknownGroupMessage, details: [{ field: 'group_code', message: unknownGroupMessage }] },
      },
    };
    expect(answers).toEqual({
      wrongPassword: wrongCredentials,
      unknownGroupCode: unknownGroup,
      malformedJson: { status: 400, body: { error: { code: 'INVALID_JSON', message: 'Ogiltig JSON i begäran' } } },
      tenMegabytes: { status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Begäran är för stor' } } },
      sqlInEmail: {
        status: 400,
        body: {
          error: {
            code: 'VALIDATION',
            message: 'Ange en giltig e-postadress',
            details: [{ field: 'email', message: 'Ange en giltig e-postadress' }],
          },
        },
      },
      sqlInPassword: wrongCredentials,
      sqlInGroupCode: unknownGroup,
    });

    const output = server.output();
    // The log did see the requests, at info level.
    expect(output).toContain('"url":"/api/auth/register-seller"');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('"stack"');
  });
});

describe('SUPERADMIN_EMAIL and SEED_DEMO=0', () => {
  it(
    'start an empty portal whose superadmin signs in and reaches the overview, on the first start and the next',
    { timeout: 180_000 },
    async () => {
      const data = await freshData('superadmin', 'empty');
      const superadmin = { email: 'chef@skolan.se', password: 'Hemligt-Chef-1' };
      const env = { SUPERADMIN_EMAIL: superadmin.email, SUPERADMIN_PASSWORD: superadmin.password, SEED_DEMO: '0' };

      for (const start of ['first', 'second']) {
        const server = await spawnServer({ port, data, env });
        try {
          const token = await tokenOf(await send(server, 'POST', '/api/auth/login', { body: superadmin }));
          const overview = await send(server, 'GET', '/api/admin/overview', { token });
          expect({ start, status: overview.status }).toEqual({ start, status: 200 });
          expect(await overview.json()).toMatchObject({ active_groups: 0, archived_groups: 0, sellers_total: 0, orders_count: 0 });
        } finally {
          await stop(server);
        }
        const users = await inspectDatabase<{ email: string; is_superadmin: boolean }>(data, sql`select email, is_superadmin from users`);
        const [groups] = await inspectDatabase<{ count: number }>(data, sql`select count(*)::int as count from groups`);
        expect({ start, users, groups: groups!.count }).toEqual({
          start,
          users: [{ email: superadmin.email, is_superadmin: true }],
          groups: 0,
        });
      }
    },
  );
});
