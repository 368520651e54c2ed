import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataDirPrivate } from './private-data-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const modeOf = (file: string) => fs.lstatSync(file).mode & 0o777;

describe('makeDataDirPrivate', () => {
  it('takes group and other permissions off every directory and file under DATA_DIR, keeping the owner’s, and says what it changed', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-outside-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-private-'));
    dirs.push(outside, dataDir);
    fs.mkdirSync(path.join(dataDir, 'outbox'));
    fs.mkdirSync(path.join(dataDir, 'pgdata', 'base'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'outbox', 'mejl.json'), '{}');
    fs.writeFileSync(path.join(dataDir, 'pgdata', 'base', 'run.sh'), '');
    fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'x');
    fs.writeFileSync(path.join(outside, 'annans.txt'), '');
    fs.symlinkSync(path.join(outside, 'annans.txt'), path.join(dataDir, 'länk'));
    for (const [file, mode] of [
      [dataDir, 0o755],
      ['outbox', 0o777],
      ['pgdata', 0o750],
      ['pgdata/base', 0o700],
      ['outbox/mejl.json', 0o644],
      ['pgdata/base/run.sh', 0o755],
      ['jwt-secret', 0o600],
    ] as const) {
      fs.chmodSync(path.resolve(dataDir, file), mode);
    }
    fs.chmodSync(path.join(outside, 'annans.txt'), 0o644);

    const { tightened, failed } = makeDataDirPrivate(dataDir);

    expect(failed).toEqual([]);
    expect(tightened.map((file) => path.relative(dataDir, file) || '.').sort()).toEqual(
      ['.', 'outbox', 'outbox/mejl.json', 'pgdata', 'pgdata/base/run.sh'].sort(),
    );
    expect({
      dataDir: modeOf(dataDir),
      outbox: modeOf(path.join(dataDir, 'outbox')),
      pgdata: modeOf(path.join(dataDir, 'pgdata')),
      mail: modeOf(path.join(dataDir, 'outbox', 'mejl.json')),
      script: modeOf(path.join(dataDir, 'pgdata', 'base', 'run.sh')),
      secret: modeOf(path.join(dataDir, 'jwt-secret')),
      // A link is not followed out of DATA_DIR: what it points at is not the portal's.
      outside: modeOf(path.join(outside, 'annans.txt')),
    }).toEqual({ dataDir: 0o700, outbox: 0o700, pgdata: 0o700, mail: 0o600, script: 0o700, secret: 0o600, outside: 0o644 });

    expect(makeDataDirPrivate(dataDir)).toEqual({ tightened: [], failed: [] });
  });

  it('does nothing to a DATA_DIR that does not exist yet', () => {
    expect(makeDataDirPrivate(path.join(os.tmpdir(), 'sp-finns-inte', String(Date.now())))).toEqual({ tightened: [], failed: [] });
  });
});
