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

/**
 * Checks e-mail and password. An unknown address and a wrong password give the same answer after
 * the same work (a hash is verified either way), so sign-in does not reveal who has an account.
 */
export async function signIn(db: Db, options: { email: string; password: string }) {
  const user = await findUserByEmail(db, options.email);
  const valid = user ? await verifyPassword(user.passwordHash, options.password) : await verifyAgainstDummy(options.password);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS', 'Fel e-postadress eller lösenord');
  return user;
}
