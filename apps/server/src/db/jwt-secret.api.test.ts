/**
 * Where the access-token signing secret comes from (decision 015), on PGlite or PostgreSQL as
 * TEST_DB says: JWT_SECRET wins; otherwise the first resolver stores one in the database and every
 * later one, from any data dir, reads that one back; a secret file left by an older version is
 * adopted, so an upgrade signs no one out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-server.js';
import { resolveJwtSecret } from './jwt-secret.js';
import { appSecrets } from './schema.js';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-jwt-secret-'));
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const dataDir = (name: string, legacySecret?: string) => {
  const dir = path.join(workDir, name);
  fs.mkdirSync(dir, { recursive: true });
  if (legacySecret) fs.writeFileSync(path.join(dir, 'jwt-secret'), `${legacySecret}\n`);
  return dir;
};

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET when it is set, and stores nothing', async () => {
    const secret = 'satt-av-driften-satt-av-driften-0123456789';
    expect(await resolveJwtSecret({ jwtSecret: secret, dataDir: dataDir('env') }, database.db)).toBe(secret);
    expect(await database.db.select().from(appSecrets)).toEqual([]);
  });

  it('adopts an older data dir’s secret file once, then gives every data dir the stored secret', async () => {
    const legacy = 'en-aldre-versions-hemlighet-i-en-fil-0123456789';
    const first = await resolveJwtSecret({ jwtSecret: undefined, dataDir: dataDir('aldre', legacy) }, database.db);
    expect(first).toBe(legacy);
    // Any number of resolvers at once, each with its own data dir (and file, or none), agree.
    const others = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        resolveJwtSecret(
          { jwtSecret: undefined, dataDir: dataDir(`ny-${i}`, i % 2 ? `en-annan-fil-${i}-0123456789012345678901234` : undefined) },
          database.db,
        ),
      ),
    );
    expect(others).toEqual(others.map(() => legacy));
    expect(fs.existsSync(path.join(workDir, 'ny-0', 'jwt-secret'))).toBe(false);
  });

  it('generates a long random secret on an empty database without a file', async () => {
    await database.db.delete(appSecrets);
    const secret = await resolveJwtSecret({ jwtSecret: undefined, dataDir: dataDir('tom') }, database.db);
    expect(secret.length).toBeGreaterThanOrEqual(64);
    expect(await resolveJwtSecret({ jwtSecret: undefined, dataDir: dataDir('tom-2') }, database.db)).toBe(secret);
  });
});
