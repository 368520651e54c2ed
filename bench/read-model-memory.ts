/**
 * The read model's memory at the data set's scale (issue 23): a Node process of its own, started
 * with --expose-gc, reads everything the read model holds and keeps it, and reports its RSS and
 * V8 heap without the model and with it (each after a full garbage collection). Run by
 * bench/run.ts as `node --expose-gc --import tsx bench/read-model-memory.ts <DATABASE_URL>`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../apps/server/src/db/client.js';
import { ReadModelState } from '../apps/server/src/modules/figures/read-model/read-model-state.js';
import { readSnapshot } from '../apps/server/src/modules/figures/read-model/rows.js';

export interface ReadModelMemory {
  rssWithout: number;
  rssWith: number;
  heapWithout: number;
  heapWith: number;
  loadMs: number;
  users: number;
  memberships: number;
  groups: number;
}

/** Runs this file in a child process over `databaseUrl` and returns what it measured. */
export function measureReadModelMemory(databaseUrl: string): ReadModelMemory {
  const here = fileURLToPath(import.meta.url);
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, databaseUrl], {
    cwd: path.resolve(path.dirname(here), '..'),
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1)!) as ReadModelMemory;
}

async function main(databaseUrl: string) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('kör med --expose-gc');
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const settled = () => {
    gc();
    gc();
    return process.memoryUsage();
  };
  // Warm the driver and the query code first, so that "without" holds everything but the data.
  const state = new ReadModelState();
  state.replaceAll({ users: [], memberships: [], groups: [] });
  const without = settled();
  const started = performance.now();
  state.replaceAll(await readSnapshot(database.db));
  const loadMs = performance.now() - started;
  const withModel = settled();
  await database.close();
  const figures: ReadModelMemory = {
    rssWithout: without.rss,
    rssWith: withModel.rss,
    heapWithout: without.heapUsed,
    heapWith: withModel.heapUsed,
    loadMs,
    ...state.size,
  };
  console.log(JSON.stringify(figures));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main(process.argv[2]!);
