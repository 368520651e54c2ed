/**
 * Issue 23, decisions 047 and 057: the seller calls answer from the read model, and the read model is exact.
 * - Whatever a request of this process wrote is in the next answer, with no waiting in the test;
 *   what the test's own SQL wrote is in the next answer that presents the data version after it
 *   (as a write's answer carries it): the version sees to it.
 * - What another connection commits (another server process, an operator's SQL) is in an answer
 *   within a second: the change feed brings it.
 * - A lost listening connection is made again and everything is read anew (PostgreSQL).
 * Each class of row the model holds is changed: figures, users, memberships, groups, sessions.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGroupTotalsResponse, TLeaderboardResponse, TMeSummaryResponse } from '@saljportalen/contract';
import { eventually, fullLeaderboardItems, startTestServer, testDbKind, type TestServer } from '../../../../test/test-server.js';
import { groupIdByCode, insertOrder, membershipOf, sqlRows } from '../../../../test/admin-fixtures.js';
import { LISTENER_NAME } from '../../../db/notifications.js';
import { startChangeFeed } from '../../../db/change-feed.js';
import { DATA_VERSION_HEADER } from '../../../plugins/read-model.js';
import { ReadModel } from './read-model.js';

let server: TestServer;
let group: number;
let noahToken: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  group = await groupIdByCode(server.app.db, 'BJK6B2');
  noahToken = await server.login('noah@demo.se');
});
afterAll(() => server.close());

/** The data version now, as a write's answer would carry it: read after the test's own SQL. */
async function versionNow(): Promise<string> {
  const [row] = await sqlRows<{ version: string }>(
    server.app.db,
    sql`select (pg_current_wal_insert_lsn() - '0/0')::bigint::text as version`,
  );
  return row!.version;
}

/** A seller call that presents the data version after everything the test has written. */
async function get<T>(path: string, token = noahToken): Promise<T> {
  const response = await server.request('GET', path, { token, headers: { [DATA_VERSION_HEADER]: await versionNow() } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const summary = () => get<TMeSummaryResponse>('/api/me/summary');
const totals = () => get<TGroupTotalsResponse>('/api/group/totals');
const leaderboard = async () => fullLeaderboardItems(await get<TLeaderboardResponse>('/api/group/leaderboard-mine'));

describe('the read model, within one process', () => {
  it('has every write of this process in the very next answer: figures, names, settings, memberships', async () => {
    const db = server.app.db;
    const noah = await membershipOf(db, 'noah@demo.se', 'BJK6B2');
    for (let round = 1; round <= 5; round++) {
      const before = await summary();
      const order = await insertOrder(db, { membership: noah, orderedAt: new Date(), lines: [{ amountOre: 100 * round }] });
      const after = await summary();
      expect(after.personal.total_sales * 100).toBe(before.personal.total_sales * 100 + order.subtotalOre);
      expect(after.personal.orders_count).toBe(before.personal.orders_count + 1);

      await db.execute(sql`update users set full_name = ${`Noah Runda ${round}`} where id = ${noah.userId}`);
      expect((await leaderboard()).some((item) => item.seller_name === `Noah Runda ${round}`)).toBe(true);

      await db.execute(sql`update groups set leaderboard_mode = 'participation', name = ${`Klass 6B runda ${round}`} where id = ${group}`);
      expect((await totals()).leaderboard_mode).toBe('participation');
      expect((await summary()).group_hint?.name).toBe(`Klass 6B runda ${round}`);
      await db.execute(sql`update groups set leaderboard_mode = 'full' where id = ${group}`);
      expect((await totals()).leaderboard_mode).toBe('full');
    }

    // A membership that goes: no group any more, and off the class's list at once.
    const elsa = await membershipOf(db, 'elsa@demo.se', 'BJK6B2');
    const elsaToken = await server.login('elsa@demo.se');
    expect((await get<TMeSummaryResponse>('/api/me/summary', elsaToken)).group_hint?.id).toBe(group);
    await db.transaction(async (tx) => {
      await tx.execute(sql`update orders set membership_id = null where membership_id = ${elsa.id}`);
      await tx.execute(sql`delete from memberships where id = ${elsa.id}`);
    });
    expect((await get<TMeSummaryResponse>('/api/me/summary', elsaToken)).group_hint).toBeNull();
    expect((await leaderboard()).some((item) => item.user_id === elsa.userId)).toBe(false);
  });

  it('refuses a session the moment it ends, and a password change’s older tokens', async () => {
    const token = await server.login('elsa@demo.se');
    expect((await server.request('GET', '/api/me/summary', { token })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    expect((await server.request('GET', '/api/me/summary', { token })).status).toBe(401);

    const other = await server.login('elsa@demo.se');
    await server.app.db.execute(sql`update users set token_version = token_version + 1 where email = 'elsa@demo.se'`);
    const version = await versionNow();
    for (const path of ['/api/me/summary', '/api/group/totals', '/api/group/leaderboard-mine']) {
      expect((await server.request('GET', path, { token: other, headers: { [DATA_VERSION_HEADER]: version } })).status, path).toBe(401);
    }
  });

  it('knows a user created a moment ago', async () => {
    const response = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Nyfiken Ny', email: 'nyfiken@demo.se', password: 'nyfiken-losen1', group_code: 'BJK6B2', under_13: false },
    });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect((await get<TMeSummaryResponse>('/api/me/summary', token)).user.full_name).toBe('Nyfiken Ny');
  });
});

/** A change feed of its own on the test server's database; `beforeBarrier` runs before each barrier it sends, and may fail it. */
function feedOnTheTestDatabase(beforeBarrier: () => unknown) {
  const database = server.database;
  return startChangeFeed({
    availability: database.availability,
    listen: async (channel, handlers) => {
      const listening = await database.listen(channel, handlers);
      return {
        ...listening,
        async query(text, values) {
          beforeBarrier();
          return listening.query(text, values);
        },
      };
    },
  });
}

describe('the read model’s freshness', () => {
  it('starts, though its barriers fail for a while right after the first load (the reviewer’s experiment)', async () => {
    // The reviewer's 300 ms, counted in barriers rather than by the clock: the next three fail.
    let toFail = 0;
    let failed = 0;
    const feed = await feedOnTheTestDatabase(() => {
      if (toFail > 0) {
        toFail -= 1;
        failed += 1;
        throw new Error('spärren når inte databasen');
      }
    });
    const model = new ReadModel({
      db: server.app.db,
      feed,
      log: {
        info(_object, message) {
          if (message === 'läsmodellen är inläst' && failed === 0) toFail = 3;
        },
        warn() {},
      },
    });
    try {
      // A start that hangs on the failed barriers never resolves (the test's time limit ends it).
      await model.start();
      expect(failed).toBe(3);
      expect(model.isReady).toBe(true);
    } finally {
      model.stop();
      await feed.stop();
    }
  });

  it('answers the first call after a quiet spell once one barrier has confirmed it, not with a 503', async () => {
    let barriers = 0;
    const feed = await feedOnTheTestDatabase(() => (barriers += 1));
    // A feed kept warm by nobody: no heartbeat, as in a process nobody has called for a while.
    const model = new ReadModel({ db: server.app.db, feed: { subscribe: feed.subscribe, version: feed.version, keepWarm() {} } });
    try {
      await model.start();
      // The last barrier's confirmation runs out (FRESH_MS), and no heartbeat renews it.
      await eventually(() => !model.isFresh);
      const before = barriers;
      await model.current();
      expect(barriers).toBe(before + 1);
      expect(model.isFresh).toBe(true);
    } finally {
      model.stop();
      await feed.stop();
    }
  });

  it('answers a read that presents a version from nowhere after one barrier, not with a 503', async () => {
    // Waiting for the version itself would end in a 503 when the model's wait (`waitMs`) runs out.
    const response = await server.request('GET', '/api/me/summary', {
      token: noahToken,
      headers: { [DATA_VERSION_HEADER]: '9007199254740991' },
    });
    expect(response.status).toBe(200);
  });

  it('puts the data version after a write on its answer, never lower than one before', async () => {
    const before = Number(await versionNow());
    const response = await server.request('POST', '/api/group/settings', {
      token: await server.login('larare@bjorkskolan.se'),
      body: { group_id: group, show_leaderboard: true },
    });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get(DATA_VERSION_HEADER))).toBeGreaterThanOrEqual(before);
    const read = await server.request('GET', '/api/me/summary', { token: noahToken });
    expect(read.headers.get(DATA_VERSION_HEADER)).toBeNull();
  });
});

describe.runIf(testDbKind === 'postgres')('the read model and other connections (PostgreSQL)', () => {
  let outside: pg.Client;
  beforeAll(async () => {
    outside = new pg.Client({ connectionString: server.app.config.databaseUrl });
    await outside.connect();
  });
  afterAll(() => outside.end());

  it('has a change another connection commits within a second', async () => {
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    await outside.query(`update groups set name = 'Klass 6B utifrån' where id = $1`, [group]);
    await eventually(async () => (await summary()).group_hint?.name === 'Klass 6B utifrån', 1000);
    await outside.query(`update memberships set protected_identity = true where id = $1`, [noah.id]);
    await eventually(async () => !(await leaderboard()).some((item) => item.user_id === noah.userId), 1000);
    await outside.query(`update memberships set protected_identity = false where id = $1`, [noah.id]);
    await eventually(async () => (await leaderboard()).some((item) => item.user_id === noah.userId), 1000);
  });

  it('reads everything anew after its listening connection is lost, changes made meanwhile included', async () => {
    const loads = async () => {
      const text = await (await server.request('GET', '/metrics')).text();
      return Number(/^saljportalen_read_model_loads_total (\S+)/m.exec(text)?.[1]);
    };
    const before = await loads();
    const { rows } = await outside.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and application_name = $1`,
      [LISTENER_NAME],
    );
    expect(rows.length).toBe(1);
    await outside.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await outside.query(`update groups set name = 'Klass 6B efter avbrottet' where id = $1`, [group]);
    await eventually(async () => (await loads()) > before);
    expect((await summary()).group_hint?.name).toBe('Klass 6B efter avbrottet');
  });
});
