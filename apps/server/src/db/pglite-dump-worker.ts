// A worker thread that dumps a copy of the running embedded database (issue 34 point 2): the
// copy's PGlite and its pg_dump, both WebAssembly, run here, off the server's event loop, so that
// requests are answered while a backup is made. Bundled as dist/pglite-dump-worker.js beside main.js.
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { dumpPglite } from './pglite-dump.js';

/** A copied data dir's path, or a data dir as PGlite's dumpDataDir tarball. */
parentPort!.once('message', async (source: string | ArrayBuffer) => {
  try {
    const copy = typeof source === 'string' ? await PGlite.create(source) : await PGlite.create({ loadDataDir: new Blob([source]) });
    try {
      parentPort!.postMessage({ text: await dumpPglite(copy) });
    } finally {
      await copy.close();
    }
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
