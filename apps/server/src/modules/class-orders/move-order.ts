import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { TMoveOrderResponse } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { memberships, orderLines, orders, users } from '../../db/schema.js';
import { AppError, fieldError, notFound } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

const orderNotFound = () => notFound('Ordern hittades inte');

export const MOVE_PAID_OUT_REFUSED =
  'Ordern ingår redan i en avräkning och kan inte flyttas härifrån. Kontakta Säljportalen: den flyttas då som en rättelse i nästa avräkning.';

/**
 * Moves an order to the pupil who really sold it (issue 30 point 5): a parent bought through the
 * wrong link. The group's admin moves an order no payout has taken yet; a superadmin any order,
 * one a payout has taken by correction lines (decision 067). Always within the order's group, and
 * audited with the reason.
 */
export async function moveOrder(
  db: Db,
  options: { orderId: number; toMembershipId: number; reason: string; actorUserId: number },
): Promise<TMoveOrderResponse['order']> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, membershipId: orders.membershipId, groupId: orders.groupId })
      .from(orders)
      .where(eq(orders.id, options.orderId))
      .for('update');
    if (!order || order.groupId === null) throw orderNotFound();
    // The actor's right to the order's group, in the statement that reads it; an order of a group
    // the actor has nothing to do with is not found, so order ids tell nothing about other classes.
    const [actor] = await tx
      .select({ isSuperadmin: users.isSuperadmin })
      .from(users)
      .where(and(eq(users.id, options.actorUserId), actsForGroup(tx, options.actorUserId, order.groupId)));
    if (!actor) throw orderNotFound();

    const [pupil] = await tx
      .select({ membershipId: memberships.id, name: users.fullName, consent: users.guardianConsent })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.id, options.toMembershipId), eq(memberships.groupId, order.groupId), isNull(users.erasedAt)));
    if (!pupil) throw fieldError('VALIDATION', 'to_membership_id', 'Eleven finns inte i klassen');
    if (pupil.consent === 'pending')
      throw fieldError(
        'VALIDATION',
        'to_membership_id',
        'Eleven väntar på en vårdnadshavares godkännande och kan inte få försäljningar ännu',
      );
    const moved = { order_id: order.id, membership_id: pupil.membershipId, seller_name: pupil.name, by_correction: false };
    if (order.membershipId === pupil.membershipId) return moved;

    const byCorrection = await hasHeldLines(tx, order.id);
    if (byCorrection && !actor.isSuperadmin) throw new AppError('CONFLICT', MOVE_PAID_OUT_REFUSED);
    if (byCorrection) await transferHeldLines(tx, order.id, pupil.membershipId);
    // What no payout holds moves with the order; transfer lines stay with the pupil they name.
    await tx
      .update(orderLines)
      .set({ membershipId: pupil.membershipId })
      .where(and(eq(orderLines.orderId, order.id), isNull(orderLines.payoutId), ne(orderLines.kind, 'transfer')));
    await tx.update(orders).set({ membershipId: pupil.membershipId, updatedAt: new Date() }).where(eq(orders.id, order.id));
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'order.move',
      targetType: 'order',
      targetId: order.id,
      details: {
        group_id: order.groupId,
        from_membership_id: order.membershipId,
        to_membership_id: pupil.membershipId,
        reason: options.reason,
        by_correction: byCorrection,
      },
    });
    return { ...moved, by_correction: byCorrection };
  });
}

/** Lines that stay where they are when the order moves: those a payout took, and earlier transfers. */
const held = () => or(sql`${orderLines.payoutId} is not null`, eq(orderLines.kind, 'transfer'));

async function hasHeldLines(tx: Tx, orderId: number): Promise<boolean> {
  const [line] = await tx
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.payoutId} is not null`))
    .limit(1);
  return Boolean(line);
}

/**
 * For each pupil who holds a share of the order in lines that stay (per product), one transfer line
 * takes it from them and one gives it to the new pupil, booked now and settled by the group's next
 * payout: the paid payout keeps its lines, and after the move only the new pupil holds the order.
 */
async function transferHeldLines(tx: Tx, orderId: number, toMembershipId: number): Promise<void> {
  const shares = await tx
    .select({
      membershipId: orderLines.membershipId,
      groupId: orderLines.groupId,
      productId: orderLines.productId,
      title: orderLines.title,
      quantity: sql<number>`sum(${orderLines.quantity})`.mapWith(Number),
      amountOre: sql<number>`sum(${orderLines.amountOre})`.mapWith(Number),
      commissionOre: sql<number>`sum(${orderLines.commissionOre})`.mapWith(Number),
    })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), held()))
    .groupBy(orderLines.membershipId, orderLines.groupId, orderLines.productId, orderLines.title);
  const bookedAt = new Date();
  const transfers = shares
    .filter(
      (share) => share.membershipId !== toMembershipId && (share.amountOre !== 0 || share.commissionOre !== 0 || share.quantity !== 0),
    )
    .flatMap((share) => {
      const line = { orderId, kind: 'transfer' as const, productId: share.productId, title: share.title, groupId: share.groupId, bookedAt };
      return [
        {
          ...line,
          membershipId: share.membershipId,
          quantity: -share.quantity,
          amountOre: -share.amountOre,
          commissionOre: -share.commissionOre,
        },
        { ...line, membershipId: toMembershipId, quantity: share.quantity, amountOre: share.amountOre, commissionOre: share.commissionOre },
      ];
    });
  if (transfers.length > 0) await tx.insert(orderLines).values(transfers);
}
