import { eq } from 'drizzle-orm';
import type { TRegisterSellerRequest } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { createMembership } from '../memberships/create-membership.js';
import { findUserByEmail } from './sign-in.js';

export const normalizeGroupCode = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '');

/**
 * A seller joins a group with its code. Someone who already has an account joins the new group
 * by giving that account's password; anyone else is told the address is taken. An account that is
 * in the group already stays as it is there: a group admin who uses the code is not made a seller.
 */
export async function registerSeller(db: Db, request: TRegisterSellerRequest): Promise<{ userId: number }> {
  const [group] = await db
    .select()
    .from(groups)
    .where(eq(groups.code, normalizeGroupCode(request.group_code)));
  if (!group) throw new AppError('VALIDATION', 'Okänd gruppkod. Kontrollera koden med din lärare eller ledare.');
  if (group.archived) throw new AppError('VALIDATION', 'Gruppen är arkiverad och tar inte emot nya säljare.');

  const existing = await findUserByEmail(db, request.email);
  if (existing) {
    if (!(await verifyPassword(existing.passwordHash, request.password))) {
      throw new AppError('EMAIL_TAKEN', 'Det finns redan ett konto med den e-postadressen. Logga in eller återställ lösenordet.');
    }
    await db.transaction(async (tx) => {
      await createMembership(tx, { userId: existing.id, groupId: group.id, role: 'seller' });
      await tx.update(users).set({ activeGroupId: group.id }).where(eq(users.id, existing.id));
    });
    return { userId: existing.id };
  }

  const passwordHash = await hashPassword(request.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: request.email.trim(), passwordHash, fullName: request.full_name.trim(), activeGroupId: group.id })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) throw new AppError('EMAIL_TAKEN', 'Det finns redan ett konto med den e-postadressen. Logga in eller återställ lösenordet.');
    await createMembership(tx, { userId: user.id, groupId: group.id, role: 'seller' });
    return { userId: user.id };
  });
}
