import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { acquireDataDirLock } from './data-dir-lock.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const lockError = (lock: () => unknown) => {
  try {
    lock();
  } catch (error) {
    return error instanceof AppError ? { code: error.code, message: error.message } : error;
  }
  return 'låst';
};

describe('acquireDataDirLock', () => {
  it('refuses a second lock of one data dir in the same process, by any path to it, until the first is released', () => {
    const dir = freshDir();
    const release = acquireDataDirLock(dir);
    const link = path.join(freshDir(), 'länk');
    fs.symlinkSync(dir, link);
    expect(lockError(() => acquireDataDirLock(dir))).toMatchObject({ code: 'DATA_DIR_LOCKED' });
    expect(lockError(() => acquireDataDirLock(link))).toEqual({
      code: 'DATA_DIR_LOCKED',
      message: `Databasen i ${link} är redan öppen i den här processen (${process.pid}). PGlite får bara öppnas en gång per datakatalog: använd den öppna databasen eller stäng den först.`,
    });
    release();
    expect(fs.existsSync(path.join(dir, 'pglite.lock'))).toBe(false);
    acquireDataDirLock(dir)();
  });

  it('refuses a data dir another live process holds', () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'pglite.lock'), String(process.ppid));
    expect(lockError(() => acquireDataDirLock(dir))).toMatchObject({
      code: 'DATA_DIR_LOCKED',
      message: expect.stringContaining(`process ${process.ppid}`),
    });
  });

  it('takes over a lock left by an earlier process, also one that had our pid (a container restarted as pid 1)', () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'pglite.lock'), String(process.pid));
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
