import { loadConfig, type Config } from '../../config.js';
import { openDatabase, type Db } from '../../db/client.js';
import { keepNewFilesPrivate } from '../../lib/private-data-dir.js';

/**
 * Runs an operator command on the configured database. `npm run … -w apps/server` starts in
 * apps/server; going back to where the command was typed makes DATA_DIR and file paths mean what
 * they mean to `npm start` run from the same place.
 */
export async function runCommand(command: (context: { db: Db; config: Config }) => Promise<number>): Promise<never> {
  keepNewFilesPrivate(); // what it writes under DATA_DIR (PGlite's files) is the owner's alone, as the server's
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  let exitCode = 1;
  try {
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      exitCode = await command({ db: database.db, config });
    } finally {
      await database.close();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
  process.exit(exitCode);
}
