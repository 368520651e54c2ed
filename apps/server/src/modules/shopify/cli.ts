import { loadConfig, type Config } from '../../config.js';
import { openDatabase, type Db } from '../../db/client.js';
import { runOperatorCommand } from '../../lib/operator-command.js';

/** Runs a Shopify operator command (import, replay) on the configured database, as every operator command runs. */
export function runCommand(command: (context: { db: Db; config: Config }) => Promise<number>): Promise<never> {
  return runOperatorCommand(async () => {
    const config = loadConfig();
    // An operator's command, not a request: it may wait and run as long as it takes (decision 021).
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, limits: false });
    try {
      return await command({ db: database.db, config });
    } finally {
      await database.close();
    }
  });
}
