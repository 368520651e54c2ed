import { and, eq, inArray, isNotNull, isNull, notExists } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groups, guardianLinks, memberships, signInSlipCodes, users } from '../../db/schema.js';
import { AppError, forbidden } from '../../errors.js';
import { randomCode, sha256 } from '../../lib/random-codes.js';
import { actsForGroup } from './group-admin-condition.js';
import { renderSlipsPdf, type SignInSlip } from './render-slips-pdf.js';
import { bySwedishName } from '../groups/swedish-order.js';

/** How long a slip's one-time code works (issue 31): a week of lessons. */
export const SLIP_CODE_TTL_DAYS = 7;

/** 'K7PM-3XQA': eight letters and digits nobody mixes up, in two groups to read off a paper. */
const slipCode = () => {
  const code = randomCode(8);
  return `${code.slice(0, 4)}-${code.slice(4)}`;
};

/** The form a typed code is compared in: no dash or space, upper case. */
export const normalizeSlipCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * Sign-in slips for the group's class-list pupils who have no guardian's address (issue 31 point
 * 2): a new one-time code for each, stored hashed, and every unused older code of theirs deleted,
 * so only the newest paper works. Only the group's admin or a superadmin (actsForGroup in the
 * WHERE); the route's export entry audits who printed them. Returns the PDF.
 */
export async function createSignInSlips(
  db: Db,
  options: { actorUserId: number; groupId: number; publicUrl: string },
): Promise<{ pdf: Buffer; fileName: string; count: number }> {
  const expiresAt = new Date(Date.now() + SLIP_CODE_TTL_DAYS * 24 * 60 * 60_000);
  const { groupName, slips } = await db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)));
    if (!group) throw forbidden('Endast gruppens administratörer kan skriva ut inloggningslappar');
    const pupils = await tx
      .select({ id: users.id, name: users.fullName, username: users.username })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.groupId, options.groupId),
          isNotNull(users.username),
          isNull(users.erasedAt),
          notExists(tx.select({ id: guardianLinks.id }).from(guardianLinks).where(eq(guardianLinks.childUserId, users.id))),
        ),
      );
    if (pupils.length === 0) {
      throw new AppError('NOT_FOUND', 'Det finns inga elever från en klasslista utan vårdnadshavarens e-postadress i gruppen.');
    }
    const ids = pupils.map((pupil) => pupil.id);
    await tx.delete(signInSlipCodes).where(and(inArray(signInSlipCodes.userId, ids), isNull(signInSlipCodes.usedAt)));
    const slips: SignInSlip[] = [];
    for (const pupil of bySwedishName(pupils)) {
      const code = slipCode();
      await tx.insert(signInSlipCodes).values({ userId: pupil.id, codeHash: sha256(normalizeSlipCode(code)), expiresAt });
      slips.push({ fullName: pupil.name, username: pupil.username!, code });
    }
    return { groupName: group.name, slips };
  });
  const pdf = await renderSlipsPdf({ groupName, slips, expiresAt, signInUrl: `${options.publicUrl}/forsta-inloggning` });
  return { pdf, fileName: `inloggningslappar-${options.groupId}.pdf`, count: slips.length };
}
