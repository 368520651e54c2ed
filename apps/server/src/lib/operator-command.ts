import { keepNewFilesPrivate } from './private-data-dir.js';

/**
 * Runs an operator command and exits with its code. npm runs root scripts from the repository
 * root; going back to where the command was typed (INIT_CWD) makes DATA_DIR and file names mean
 * what they mean to `npm start` run from the same place. A failure is printed, not thrown.
 */
export async function runOperatorCommand(command: () => Promise<number>): Promise<never> {
  keepNewFilesPrivate(); // a restored pgdata, a dump: the operator's alone, as the server's files are
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  let exitCode = 1;
  try {
    exitCode = await command();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
  process.exit(exitCode);
}
