import type { PGlite } from '@electric-sql/pglite';

/**
 * A plain SQL dump of a PGlite database by PGlite's own pg_dump (loaded when first needed: it is
 * a WebAssembly program of its own). The dump opens a session of its own settings and statements
 * on `pg`, so it is only ever run on a database nothing else is using: the one `npm run backup`
 * opened, or a copy of the running server's (Database.dump).
 */
export async function dumpPglite(pg: PGlite): Promise<string> {
  const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
  return (await pgDump({ pg, args: ['--no-owner', '--no-privileges'] })).text();
}
