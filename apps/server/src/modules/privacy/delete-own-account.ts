import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { eraseAccount } from './erase-account.js';

/** 'Radera mitt konto' (`POST /api/account/delete`): the password confirms it, then the account is erased. */
export async function deleteOwnAccount(db: Db, userId: number, password: string): Promise<void> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Kontot finns inte längre');
  if (!(await verifyPassword(user.passwordHash, password))) throw fieldError('VALIDATION', 'password', 'Lösenordet är fel');
  await db.transaction((tx) => eraseAccount(tx, userId, { actorUserId: userId, reason: 'self' }));
}
