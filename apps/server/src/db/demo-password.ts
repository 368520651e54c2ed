import fs from 'node:fs';
import path from 'node:path';
import { randomCode } from '../lib/random-codes.js';

/**
 * The demo accounts' password lives in DATA_DIR/demo-password, readable by its owner only: it is
 * generated when the demo data is seeded, so no two demo installs share it and it is nowhere in
 * the code. The start banner prints it beside the demo logins; the browser tests read it here.
 */
export const DEMO_PASSWORD_FILE = 'demo-password';

/** Lower-case letters and digits that are not mistaken for one another: `k7mp-x4ts-9fqh` (about 58 bits). */
export const generateDemoPassword = () => Array.from({ length: 3 }, () => randomCode(4, 'abcdefghjkmnpqrstuvwxyz23456789')).join('-');

/** The password of this data dir's demo accounts, or undefined when none was kept. */
export function readDemoPassword(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, DEMO_PASSWORD_FILE), 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Keeps the password the demo accounts were seeded with (mode 600, whatever the umask). */
export function keepDemoPassword(dataDir: string, password: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DEMO_PASSWORD_FILE);
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
