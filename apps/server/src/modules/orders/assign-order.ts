import { and, eq, isNotNull } from 'drizzle-orm';
import { ORDER_ALREADY_ASSIGNED_MESSAGE, type TAssignOrderResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, orderLines, orders, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';

/**
 * Attributes an order to a seller's membership by hand, lines and all. An order any of whose
 * lines a payout has settled stays where it is: moving it would change a settled payout. With
 * `onlyIfUnattributed`, an order someone has assigned meanwhile stays with that seller (assigning
 * it to the same seller again is no change and succeeds).
 */
export async function assignOrder(
  db: Db,
  options: { orderId: number; membershipId: number; actorUserId: number; onlyIfUnattributed?: boolean },
): Promise<TAssignOrderResponse['order']> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, membershipId: orders.membershipId, groupId: orders.groupId })
      .from(orders)
      .where(eq(orders.id, options.orderId))
      .for('update');
    if (!order) throw new AppError('NOT_FOUND', 'Ordern hittades inte');
    const [seller] = await tx
      .select({ membershipId: memberships.id, groupId: memberships.groupId, sellerName: users.fullName, groupName: groups.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(groups, eq(groups.id, memberships.groupId))
      .where(eq(memberships.id, options.membershipId));
    if (!seller) throw new AppError('NOT_FOUND', 'Säljaren hittades inte');
    const result = {
      order_id: order.id,
      membership_id: seller.membershipId,
      group_id: seller.groupId,
      seller_name: seller.sellerName,
      group_name: seller.groupName,
    };
    if (order.membershipId === seller.membershipId) return result;
    if (options.onlyIfUnattributed && order.groupId !== null) throw new AppError('CONFLICT', ORDER_ALREADY_ASSIGNED_MESSAGE);

    const [settled] = await tx
      .select({ id: orderLines.id })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), isNotNull(orderLines.payoutId)))
      .limit(1);
    if (settled) throw new AppError('CONFLICT', 'Ordern ingår redan i en avräkning och kan inte flyttas till en annan säljare');

    await tx
      .update(orders)
      .set({ membershipId: seller.membershipId, groupId: seller.groupId, updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    // The lines join the new group's ledger on the days they happened: a day the group was paid out
    // for already makes them a correction in its next payout (decision 065).
    await tx.update(orderLines).set({ membershipId: seller.membershipId, groupId: seller.groupId }).where(eq(orderLines.orderId, order.id));
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'order.assign',
      targetType: 'order',
      targetId: order.id,
      details: {
        from_membership_id: order.membershipId,
        from_group_id: order.groupId,
        to_membership_id: seller.membershipId,
        to_group_id: seller.groupId,
      },
    });
    return result;
  });
}
