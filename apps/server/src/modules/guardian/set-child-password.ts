import { and, eq, exists, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { guardianLinks, users } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { writeAudit } from '../audit/write-audit.js';
import { revokeAllRefreshTokens } from '../auth/refresh-tokens.js';
import { notYourChild } from './guardian-children.js';

/**
 * The approved guardian of a class-list pupil (one with a username, issue 31) sets the pupil's
 * password, e.g. when it is forgotten: the pupil has no address to reset it from. Authorised in
 * the update's WHERE; every session of the pupil ends. Anyone else gets the guardian view's 404.
 */
export async function setChildPassword(
  db: Db,
  options: { guardianUserId: number; childUserId: number; newPassword: string },
): Promise<void> {
  const passwordHash = await hashPassword(options.newPassword);
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(
        and(
          eq(users.id, options.childUserId),
          isNotNull(users.username),
          exists(
            tx
              .select({ id: guardianLinks.id })
              .from(guardianLinks)
              .where(
                and(
                  eq(guardianLinks.childUserId, options.childUserId),
                  eq(guardianLinks.guardianUserId, options.guardianUserId),
                  isNotNull(guardianLinks.approvedAt),
                ),
              ),
          ),
        ),
      )
      .returning({ id: users.id });
    if (!updated) throw notYourChild();
    await revokeAllRefreshTokens(tx, options.childUserId);
    await writeAudit(tx, {
      actorUserId: options.guardianUserId,
      action: 'user.password_by_guardian',
      targetType: 'user',
      targetId: options.childUserId,
    });
  });
}
