import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { signInSlipCodes, users } from '../../db/schema.js';
import { fieldError } from '../../errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { sha256 } from '../../lib/random-codes.js';
import { writeAudit } from '../audit/write-audit.js';
import { revokeAllRefreshTokens } from './refresh-tokens.js';

const wrongSlip = () =>
  fieldError(
    'VALIDATION',
    'code',
    'Användarnamnet och engångskoden hör inte ihop, koden är redan använd eller har gått ut. Be din lärare om en ny lapp.',
  );

/**
 * A class-list pupil's first sign-in (issue 31): the username and the one-time code of the printed
 * slip choose the pupil's own password. The code is spent in the update that checks it (single
 * use whatever arrives at once), every session of the account ends, and the answer is the user id
 * to sign in. The same Swedish refusal for an unknown name, a wrong, used or expired code.
 */
export async function redeemSlipCode(
  db: Db,
  options: { username: string; code: string; newPassword: string },
): Promise<{ userId: number }> {
  const passwordHash = await hashPassword(options.newPassword);
  const codeHash = sha256(options.code.replace(/[\s-]/g, '').toUpperCase());
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(signInSlipCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(signInSlipCodes.codeHash, codeHash),
          isNull(signInSlipCodes.usedAt),
          gt(signInSlipCodes.expiresAt, sql`now()`),
          eq(
            signInSlipCodes.userId,
            sql`(select ${users.id} from ${users} where lower(${users.username}) = ${options.username.trim().toLowerCase()} and ${users.erasedAt} is null)`,
          ),
        ),
      )
      .returning({ userId: signInSlipCodes.userId });
    if (!spent) throw wrongSlip();
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, spent.userId));
    await revokeAllRefreshTokens(tx, spent.userId);
    await writeAudit(tx, { actorUserId: spent.userId, action: 'user.slip_password', targetType: 'user', targetId: spent.userId });
    return { userId: spent.userId };
  });
}
