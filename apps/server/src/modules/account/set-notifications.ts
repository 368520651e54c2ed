import { eq } from 'drizzle-orm';
import type { TNotificationSettings } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError, forbidden } from '../../errors.js';
import { startSaleMailCursors } from '../notifications/sale-mail.js';
import { isGroupAdmin } from './account-service.js';

/**
 * The user's own mail opt-ins (issue 20): 'Mejla mig när jag säljer' for anyone with a link, the
 * weekly summary only for a group admin. Turning the sale mail on starts its count at the sales of
 * now (decision 042), in the same transaction, so the first mail tells only of what sells after.
 */
export async function setNotifications(
  db: Db,
  userId: number,
  change: { saleMail?: boolean; weeklySummary?: boolean },
): Promise<TNotificationSettings> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ saleMail: users.saleMail, weeklySummary: users.weeklySummary })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) throw new AppError('UNAUTHENTICATED', 'Kontot finns inte längre');
    if (change.weeklySummary === true && !(await isGroupAdmin(tx, userId))) {
      throw forbidden('Veckosammanfattningen är till för gruppens administratörer');
    }
    const next = { saleMail: change.saleMail ?? user.saleMail, weeklySummary: change.weeklySummary ?? user.weeklySummary };
    if (next.saleMail && !user.saleMail) await startSaleMailCursors(tx, userId);
    await tx.update(users).set(next).where(eq(users.id, userId));
    return { sale_mail: next.saleMail, weekly_summary: next.weeklySummary };
  });
}
