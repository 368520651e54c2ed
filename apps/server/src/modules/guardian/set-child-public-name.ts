import { and, eq, exists, isNotNull } from 'drizzle-orm';
import type { TPublicNameRequest, TPublicNameResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { guardianLinks, users } from '../../db/schema.js';
import { loadPublicName, storedAlias } from '../account/set-public-name.js';
import { writeAudit } from '../audit/write-audit.js';
import { notYourChild } from './guardian-children.js';

/**
 * The approved guardian chooses for a child under 13. Authorised inside the update: an approved
 * guardian link of the signed-in user to this very child; anyone else, and a child that does not
 * exist, is refused with the guardian view's one 404. Audit-logged in the same transaction.
 */
export async function setChildPublicName(
  db: Db,
  options: { guardianUserId: number; childUserId: number; choice: TPublicNameRequest },
): Promise<TPublicNameResponse> {
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ publicName: options.choice.public_name, alias: storedAlias(options.choice.alias) })
      .where(
        and(
          eq(users.id, options.childUserId),
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
    await writeAudit(tx, {
      actorUserId: options.guardianUserId,
      action: 'user.public_name',
      targetType: 'user',
      targetId: options.childUserId,
      details: { public_name: options.choice.public_name },
    });
  });
  return loadPublicName(db, options.childUserId);
}
