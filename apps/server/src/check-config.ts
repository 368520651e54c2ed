/**
 * The configuration checked before the server's code is loaded (issue 34 point 1): `npm start`
 * (scripts/start.mjs) runs this small bundle first, so a wrong setting is told in the same one line
 * as main.ts would tell it, in a fraction of the time it takes to load the server.
 */
import { loadConfig } from './config.js';
import { describeStartupFailure } from './startup-failure.js';

/** True when the environment's configuration holds; otherwise the one-line failure is printed. */
export function configurationHolds(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    loadConfig(env);
    return true;
  } catch (error) {
    console.error(describeStartupFailure(error, {}));
    return false;
  }
}
