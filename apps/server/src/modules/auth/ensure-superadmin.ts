import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { revokeAllRefreshTokens } from './refresh-tokens.js';

/**
 * What a start did with SUPERADMIN_EMAIL: created the account, left an existing one as it was
 * (its password may have been changed in the web since), or, told to by
 * SUPERADMIN_RESET_PASSWORD=1, gave it the environment's password and signed it out everywhere.
 * `not-superadmin`: the address belongs to an account without superadmin rights, left as it is.
 */
export type SuperadminOutcome = 'created' | 'unchanged' | 'not-superadmin' | 'reset';

/**
 * SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD: the account exists. An existing account is changed only
 * with `resetPassword`: then it becomes superadmin with that password, its token version is
 * bumped (every access token already issued is refused) and its refresh tokens are revoked, as
 * a password reset does.
 */
export async function ensureSuperadmin(
  db: Db,
  options: { email: string; password: string; resetPassword?: boolean },
): Promise<SuperadminOutcome> {
  const [existing] = await db
    .select({ id: users.id, isSuperadmin: users.isSuperadmin })
    .from(users)
    .where(eq(sql`lower(${users.email})`, options.email.toLowerCase()));
  if (existing && !options.resetPassword) return existing.isSuperadmin ? 'unchanged' : 'not-superadmin';

  const passwordHash = await hashPassword(options.password);
  if (!existing) {
    // Two processes starting at once on one PostgreSQL: the second finds the first's account.
    const created = await db
      .insert(users)
      .values({ email: options.email, passwordHash, fullName: 'Superadmin', isSuperadmin: true })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return created.length > 0 ? 'created' : 'unchanged';
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ isSuperadmin: true, passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, existing.id));
    await revokeAllRefreshTokens(tx, existing.id);
  });
  return 'reset';
}
