import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from './client.js';
import { appSecrets } from './schema.js';

/**
 * The key that signs access tokens: JWT_SECRET when set, else the one kept in the database
 * (decision 015). The first process to start generates it and every other reads it back, so all
 * processes on one PostgreSQL accept each other's tokens, and a backup restores it with the rest.
 * A `DATA_DIR/jwt-secret` file from a version that kept it there is adopted instead of a new
 * random one, so the upgrade signs no one out.
 */
export async function resolveJwtSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>, db: Db): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const legacyPath = path.join(config.dataDir, 'jwt-secret');
  const legacy = fs.existsSync(legacyPath) ? fs.readFileSync(legacyPath, 'utf8').trim() : '';
  const candidate = legacy.length >= 32 ? legacy : crypto.randomBytes(48).toString('base64url');
  await db.insert(appSecrets).values({ name: 'jwt', value: candidate }).onConflictDoNothing();
  const [stored] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, 'jwt'));
  return stored!.value;
}
