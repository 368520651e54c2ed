import { eq } from 'drizzle-orm';
import { NEW_USER_NAME_REQUIRED_MESSAGE, type TMembershipRole } from '@saljportalen/contract';
import type { Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import { findUserByEmail } from '../auth/sign-in.js';
import { createMembership } from '../memberships/create-membership.js';

export interface PlacedUser {
  userId: number;
  email: string;
  fullName: string;
  isNewUser: boolean;
  /** The role the user had in the group before, or null when the user was not in it. */
  previousRole: TMembershipRole | null;
}

/**
 * Gives the account with this e-mail `role` in the group, creating the account first when there is
 * none. An existing account keeps its own name, phone and password: an admin adding someone does
 * not get to change who they are.
 */
export async function placeUserInGroup(
  tx: Tx,
  options: {
    groupId: number;
    email: string;
    role: TMembershipRole;
    newUser: { fullName?: string; phone?: string; passwordHash: () => Promise<string> };
  },
): Promise<PlacedUser> {
  let user = await findUserByEmail(tx, options.email);
  let isNewUser = false;
  if (!user) {
    const fullName = options.newUser.fullName?.trim();
    if (!fullName) throw fieldError('VALIDATION', 'full_name', NEW_USER_NAME_REQUIRED_MESSAGE);
    const [created] = await tx
      .insert(users)
      .values({
        email: options.email.trim(),
        fullName,
        phone: options.newUser.phone?.trim() || null,
        passwordHash: await options.newUser.passwordHash(),
      })
      .onConflictDoNothing()
      .returning();
    // Someone else created the address a moment ago: it is an existing account after all.
    user = created ?? (await findUserByEmail(tx, options.email));
    isNewUser = !!created;
    if (!user) throw new AppError('CONFLICT', 'Kontot ändrades samtidigt av någon annan. Försök igen.');
  }

  const membership = await createMembership(tx, { userId: user.id, groupId: options.groupId, role: options.role });
  // A superadmin placing someone decides the role, also for a member of the group already.
  if (membership.role !== options.role) await tx.update(memberships).set({ role: options.role }).where(eq(memberships.id, membership.id));
  return {
    userId: user.id,
    // Found or made by this address, so it has one.
    email: user.email ?? options.email.trim(),
    fullName: user.fullName,
    isNewUser,
    previousRole: membership.created ? null : membership.role,
  };
}
