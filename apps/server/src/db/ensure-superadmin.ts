import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { users } from './schema.js';
import { hashPassword } from '../lib/passwords.js';

/** SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD: that account exists, is superadmin and has that password. */
export async function ensureSuperadmin(db: Db, options: { email: string; password: string }): Promise<void> {
  const passwordHash = await hashPassword(options.password);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, options.email.toLowerCase()));
  if (existing) {
    await db.update(users).set({ isSuperadmin: true, passwordHash }).where(eq(users.id, existing.id));
  } else {
    await db.insert(users).values({ email: options.email, passwordHash, fullName: 'Superadmin', isSuperadmin: true });
  }
}
