import { and, eq, sql } from 'drizzle-orm';
import type { TPublicNameResponse, TPublicNameRequest } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { publicSellerName } from '../memberships/public-seller-name.js';

/** The choice as stored, and the name buyers see in the user's active group. */
export async function loadPublicName(db: Db, userId: number): Promise<TPublicNameResponse> {
  const [row] = await db
    .select({
      fullName: users.fullName,
      publicName: users.publicName,
      alias: users.alias,
      isUnder13: users.isUnder13,
      protectedIdentity: sql<boolean>`coalesce(${memberships.protectedIdentity}, false)`,
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, users.activeGroupId)))
    .where(eq(users.id, userId));
  if (!row) throw notFound('Kontot finns inte');
  return {
    public_name: row.publicName,
    alias: row.alias,
    chosen_by_guardian: row.isUnder13,
    public_seller_name: publicSellerName(row),
  };
}

export const storedAlias = (alias: string | null | undefined) => (alias ? alias : null);

/**
 * A pupil of 13 or over chooses how buyers see them. Under 13 the guardian chooses (lag 2018:218
 * 2 kap. 4 §): the condition is in the update itself, so no race makes a child's choice stick.
 */
export async function setOwnPublicName(db: Db, userId: number, choice: TPublicNameRequest): Promise<TPublicNameResponse> {
  const [updated] = await db
    .update(users)
    .set({ publicName: choice.public_name, alias: storedAlias(choice.alias) })
    .where(and(eq(users.id, userId), eq(users.isUnder13, false)))
    .returning({ id: users.id });
  if (!updated) throw forbidden('Din vårdnadshavare väljer hur ditt namn visas för köpare');
  return loadPublicName(db, userId);
}
