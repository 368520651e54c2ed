/**
 * The bench's databases: a PostgreSQL database per scale (created when missing, generated once
 * and reused while its data set is intact), or an embedded PGlite data dir. A database is only
 * ever written when it is empty or carries the bench's own mark, so pointing DATABASE_URL at a
 * real database is refused rather than filled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { dataShape, generateDataSet, type DataShape } from './generate-data.js';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/saljportalen_bench';
const MARK = 'saljportalen-bench';

export type BenchDatabase = { kind: 'postgres'; url: string; shape: DataShape } | { kind: 'pglite'; dataDir: string; shape: DataShape };

/** The env that makes the server (apps/server/src/config.ts) open this database. */
export const databaseEnv = (database: BenchDatabase): Record<string, string> =>
  database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir, SEED_DEMO: '0' };

/** `…/saljportalen_bench` → `…/saljportalen_bench_tenth` for a scale below 1. */
export function urlForScale(url: string, scale: number): string {
  if (scale === 1) return url;
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname}_${scale === 0.1 ? 'tenth' : `s${String(scale).replace('.', '_')}`}`;
  return parsed.toString();
}

const markOf = (shape: DataShape) => `${MARK} ${JSON.stringify(shape)}`;

async function ensurePostgresDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`ogiltigt databasnamn för bänken: ${name}`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}

/**
 * Opens (migrating it) or creates the database of one scale and fills it with the data set unless
 * it already holds exactly that data set. `regenerate` empties a bench database first.
 */
export async function prepareDatabase(
  options: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  scale: number,
  { regenerate, log }: { regenerate: boolean; log: (line: string) => void },
): Promise<BenchDatabase> {
  const shape = dataShape(scale);
  let target: BenchDatabase;
  if (options.kind === 'postgres') {
    const url = urlForScale(options.url, scale);
    await ensurePostgresDatabase(url);
    target = { kind: 'postgres', url, shape };
  } else {
    const dataDir = path.resolve(options.dataDir, scale === 1 ? 'full' : `scale-${scale}`);
    if (regenerate) fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    target = { kind: 'pglite', dataDir, shape };
  }

  // The data is written in long set-based statements: without the request time limits.
  const database = await openDatabase(
    target.kind === 'postgres' ? { databaseUrl: target.url, limits: false } : { dataDir: target.dataDir },
  );
  const { db } = database;
  try {
    const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as { rows: T[] };
    const mark =
      target.kind === 'postgres'
        ? (
            await rows<{ mark: string | null }>(
              sql`select shobj_description(oid, 'pg_database') as mark from pg_database where datname = current_database()`,
            )
          ).rows[0]?.mark
        : fs.existsSync(path.join(target.dataDir, 'bench-mark')) && fs.readFileSync(path.join(target.dataDir, 'bench-mark'), 'utf8');
    const [{ groups }] = (await rows<{ groups: number }>(sql`select count(*)::int as groups from groups`)).rows as [{ groups: number }];
    const ours = typeof mark === 'string' && mark.startsWith(MARK);
    if (groups > 0 && !ours) throw new Error('databasen har data som inte är bänkens: välj en tom databas (DATABASE_URL)');
    if (ours && mark === markOf(shape) && !regenerate) {
      log(`Datamängd ${describe(shape)} finns redan (${target.kind === 'postgres' ? target.url : target.dataDir})`);
      // Earlier runs' webhooks left dead rows behind in the rollups (every order updates its group's
      // and member's row), and a PostgreSQL with autovacuum off (this machine's: conf.d/90-ci.conf)
      // never clears them: the figures then drift with how often the bench has run. The rollups
      // (under 15 MB) are rewritten compact, as autovacuum would have kept them; the rest vacuumed.
      await db.execute(sql`vacuum full analyze group_figures, membership_figures`);
      await db.execute(sql`vacuum analyze`);
      return target;
    }
    if (groups > 0) {
      log('Tömmer bänkdatabasen');
      await db.execute(
        sql`truncate order_lines, orders, payouts, memberships, users, groups, products, webhook_events, audit_entries, link_clicks_per_day,
                     refresh_tokens, password_reset_codes, rate_limits restart identity cascade`,
      );
    }
    const setMark = async (text: string) => {
      if (target.kind === 'pglite') return fs.writeFileSync(path.join(target.dataDir, 'bench-mark'), text);
      const name = decodeURIComponent(new URL(target.url).pathname.slice(1));
      await db.execute(sql.raw(`comment on database ${name} is '${text.replace(/'/g, "''")}'`));
    };
    // Marked before the first row, so a generation that stops halfway is still known as the bench's.
    await setMark(`${MARK} (generating)`);
    log(`Genererar ${describe(shape)}`);
    const start = performance.now();
    await generateDataSet(db, shape, log);
    log(`  totalt ${((performance.now() - start) / 1000).toFixed(0)} s`);
    await setMark(markOf(shape));
    return target;
  } finally {
    await database.close();
  }
}

export const describe = (shape: DataShape) =>
  `${shape.groups.toLocaleString('sv-SE')} grupper, ${shape.sellers.toLocaleString('sv-SE')} säljare, ` +
  `${(2 * (shape.bigGroupOrders + shape.otherOrders)).toLocaleString('sv-SE')} orderrader`;
