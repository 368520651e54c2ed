import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { passwordResetCodes, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { portal, renderMail } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { hashPassword } from '../../lib/passwords.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';
import { revokeAllRefreshTokens } from './refresh-tokens.js';
import { findUserByEmail } from './sign-in.js';

export const RESET_CODE_TTL_MINUTES = 60;

const invalidLink = () => new AppError('VALIDATION', 'Ogiltig återställningslänk');

/**
 * A new single-use code for the account, good for RESET_CODE_TTL_MINUTES, and the link to the page
 * that spends it: the reset mail's link, and the welcome mail's 'Välj lösenord' (issue 19).
 */
export async function issuePasswordLink(db: Db | Tx, options: { userId: number; publicUrl: string; welcome?: boolean }): Promise<string> {
  const code = randomToken();
  await db.insert(passwordResetCodes).values({
    userId: options.userId,
    codeHash: sha256(code),
    expiresAt: new Date(Date.now() + RESET_CODE_TTL_MINUTES * 60_000),
  });
  // `valkommen=1` only changes the page's words ('Välj lösenord'); the code is the same kind.
  return `${options.publicUrl}/auth/reset-password?code=${encodeURIComponent(code)}${options.welcome ? '&valkommen=1' : ''}`;
}

/**
 * Mails a single-use reset link when the address has an account; says nothing either way. The
 * code and its mail are stored in one transaction: the mail outbox delivers it (issue 17).
 * Answers whether a mail was queued.
 */
export async function requestPasswordReset(db: Db, options: { email: string; publicUrl: string }): Promise<boolean> {
  const user = await findUserByEmail(db, options.email);
  if (!user?.email) return false;
  const to = user.email;
  await db.transaction(async (tx) => {
    const link = await issuePasswordLink(tx, { userId: user.id, publicUrl: options.publicUrl });
    await enqueueMails(tx, [
      {
        to,
        link,
        ...renderMail({
          subject: portal`Återställ ditt lösenord på Säljportalen`,
          greeting: portal`Hej ${user.fullName.split(' ')[0]!}!`,
          blocks: [
            'Någon (förhoppningsvis du) har bett om att få återställa lösenordet till ditt konto på Säljportalen.',
            `Öppna länken nedan inom ${RESET_CODE_TTL_MINUTES} minuter för att välja ett nytt lösenord.`,
            { action: { label: 'Välj nytt lösenord', url: link } },
            'Om du inte bad om detta kan du bortse från det här meddelandet. Ditt lösenord är oförändrat.',
          ],
        }),
      },
    ]);
  });
  return true;
}

async function findUsableCode(db: Db, code: string) {
  const [row] = await db
    .select()
    .from(passwordResetCodes)
    .where(
      and(eq(passwordResetCodes.codeHash, sha256(code)), isNull(passwordResetCodes.usedAt), gt(passwordResetCodes.expiresAt, sql`now()`)),
    );
  return row;
}

export async function verifyResetCode(db: Db, code: string): Promise<void> {
  if (!(await findUsableCode(db, code))) throw invalidLink();
}

/**
 * Sets the new password, spends the code and every other outstanding code of the account, and
 * signs the user out everywhere: refresh tokens are revoked and the token version bump
 * invalidates every access token already issued.
 */
export async function resetPassword(
  db: Db,
  options: { code: string; newPassword: string; notices: (user: { email: string | null; fullName: string }) => Mail[] },
): Promise<{ userId: number; email: string | null; fullName: string }> {
  const passwordHash = await hashPassword(options.newPassword);
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResetCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetCodes.codeHash, sha256(options.code)),
          isNull(passwordResetCodes.usedAt),
          gt(passwordResetCodes.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResetCodes.userId });
    if (!spent) throw invalidLink();
    // Every other link mailed to the account dies with this one: an older mail found later in a
    // shared or stolen inbox must not set the password again.
    await tx
      .update(passwordResetCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetCodes.userId, spent.userId), isNull(passwordResetCodes.usedAt)));
    const [user] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, spent.userId))
      .returning({ email: users.email, fullName: users.fullName });
    await revokeAllRefreshTokens(tx, spent.userId);
    await enqueueMails(tx, options.notices(user!));
    return { userId: spent.userId, email: user!.email, fullName: user!.fullName };
  });
}
