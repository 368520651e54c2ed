import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords.js';

export const findUserByEmail = async (db: Db, email: string) =>
  (
    await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
  )[0];

/** An account by its address, or a class-list pupil's by username (issue 31): an address has an '@', a username never. */
export const findUserBySignInName = async (db: Db, name: string) =>
  name.includes('@')
    ? findUserByEmail(db, name)
    : (
        await db
          .select()
          .from(users)
          .where(eq(sql`lower(${users.username})`, name.trim().toLowerCase()))
      )[0];

/**
 * Checks e-mail (or username) and password. An unknown address and a wrong password give the same answer after
 * the same work (a hash is verified either way), so sign-in does not reveal who has an account.
 */
export async function signIn(db: Db, options: { email: string; password: string }) {
  const user = await findUserBySignInName(db, options.email);
  // A class-list pupil who has no password yet has no hash to verify: the same work as an unknown name.
  const hasPassword = user !== undefined && !user.passwordHash.startsWith('!');
  const valid = hasPassword ? await verifyPassword(user.passwordHash, options.password) : await verifyAgainstDummy(options.password);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS', 'Fel e-postadress eller lösenord');
  return user;
}
