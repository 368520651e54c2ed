import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { TGuardianChildrenResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, guardianLinks, memberships, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { AuthUser } from '../../lib/current-user.js';
import type { ReadModel } from '../figures/read-model/read-model.js';
import { sellerViewOfRow, type SellerView } from '../figures/seller-view.js';
import { writeAudit } from '../audit/write-audit.js';
import { eraseAccount } from '../privacy/erase-account.js';

/** The one condition every guardian call is scoped by: an approved link of this guardian to this child. */
const approvedLinkOf = (guardianUserId: number, childUserId?: number) =>
  and(
    eq(guardianLinks.guardianUserId, guardianUserId),
    isNotNull(guardianLinks.approvedAt),
    childUserId === undefined ? undefined : eq(guardianLinks.childUserId, childUserId),
  );

/** Anyone but the child's approved guardian: the same 404 whether the child exists or not. */
export const notYourChild = () => notFound('Du är inte vårdnadshavare för det här barnet i Säljportalen');

/** The guardian's approved children, by name, with the group each is active in. */
export async function listGuardianChildren(db: Db, guardianUserId: number): Promise<TGuardianChildrenResponse> {
  const rows = await db
    .selectDistinct({ userId: users.id, fullName: users.fullName, username: users.username, groupName: groups.name })
    .from(guardianLinks)
    .innerJoin(users, and(eq(users.id, guardianLinks.childUserId), isNull(users.erasedAt)))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, users.activeGroupId)))
    .leftJoin(groups, eq(groups.id, memberships.groupId))
    .where(approvedLinkOf(guardianUserId));
  rows.sort((a, b) => a.fullName.localeCompare(b.fullName, 'sv-SE') || a.userId - b.userId);
  return {
    children: rows.map((row) => ({ user_id: row.userId, full_name: row.fullName, username: row.username, group_name: row.groupName })),
  };
}

/**
 * The child's dashboard view as the child has it (the same seller view the child's own calls read),
 * for a guardian with an approved link to that child; 404 for anyone else, so that whether a child
 * exists is not told either.
 */
export async function loadChildView(
  db: Db,
  model: Pick<ReadModel, 'sellerViewRow'>,
  guardianUserId: number,
  childUserId: number,
): Promise<{ child: AuthUser; view: SellerView }> {
  const [link] = await db
    .select({ id: guardianLinks.id })
    .from(guardianLinks)
    .innerJoin(users, and(eq(users.id, guardianLinks.childUserId), isNull(users.erasedAt)))
    .where(approvedLinkOf(guardianUserId, childUserId));
  if (!link) throw notYourChild();
  const row = await model.sellerViewRow(childUserId);
  if (!row) throw notYourChild();
  const child: AuthUser = {
    id: row.id,
    email: row.email,
    fullName: row.fullName,
    isSuperadmin: false,
    activeGroupId: row.activeGroupId,
  };
  return { child, view: sellerViewOfRow(child, row) };
}

/** 'Återkalla samtycke': the guardian withdraws consent, and the child's account is erased; both audit-logged. */
export async function withdrawGuardianConsent(db: Db, guardianUserId: number, childUserId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [link] = await tx
      .select({ id: guardianLinks.id })
      .from(guardianLinks)
      .innerJoin(users, and(eq(users.id, guardianLinks.childUserId), isNull(users.erasedAt)))
      .where(approvedLinkOf(guardianUserId, childUserId))
      .for('update');
    if (!link) throw notYourChild();
    await eraseAccount(tx, childUserId, { actorUserId: guardianUserId, reason: 'guardian_withdrew' });
    await writeAudit(tx, {
      actorUserId: guardianUserId,
      action: 'guardian.withdraw',
      targetType: 'user',
      targetId: childUserId,
      details: { guardian_link_id: link.id },
    });
  });
}
