import { eq } from 'drizzle-orm';
import type { TRegisterSellerRequest } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, users } from '../../db/schema.js';
import { fieldError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { createMembership } from '../memberships/create-membership.js';
import { inviteGuardian } from './invite-guardian.js';
import type { CountInvite } from './invite-limits.js';
import { findUserByEmail } from './sign-in.js';

export const normalizeGroupCode = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '');

/**
 * A seller joins a group with its code. Someone who already has an account joins the new group
 * by giving that account's password; anyone else is told the address is taken. An account that is
 * in the group already stays as it is there: a group admin who uses the code is not made a seller.
 * A seller under 13 is stored waiting for a guardian's consent, and the guardian is mailed (issue 22).
 * `countInvite` counts that mail before anything is stored, and refuses the whole registration
 * when the guardian's address or the group has had too many (issue 28, decision 051).
 */
export async function registerSeller(
  db: Db,
  request: TRegisterSellerRequest,
  options: { publicUrl: string; countInvite?: CountInvite },
): Promise<{ userId: number; guardianInvited: boolean }> {
  const [group] = await db
    .select()
    .from(groups)
    .where(eq(groups.code, normalizeGroupCode(request.group_code)));
  if (!group) throw fieldError('VALIDATION', 'group_code', 'Okänd gruppkod. Kontrollera koden med din lärare eller ledare.');
  if (group.archived) throw fieldError('VALIDATION', 'group_code', 'Gruppen är arkiverad och tar inte emot nya säljare.');

  const existing = await findUserByEmail(db, request.email);
  if (existing) {
    if (!(await verifyPassword(existing.passwordHash, request.password))) {
      throw fieldError('EMAIL_TAKEN', 'email', 'Det finns redan ett konto med den e-postadressen. Logga in eller återställ lösenordet.');
    }
    // An account without a guardian's consent that now says it is under 13 asks a guardian first;
    // one already approved (or waiting) keeps what it has.
    const invite = request.under_13 === true && existing.guardianConsent === null;
    if (invite) await options.countInvite?.({ guardianEmail: request.guardian_email!, groupId: group.id });
    await db.transaction(async (tx) => {
      await createMembership(tx, { userId: existing.id, groupId: group.id, role: 'seller' });
      await tx
        .update(users)
        .set({ activeGroupId: group.id, ...(invite ? { isUnder13: true, guardianConsent: 'pending' as const } : {}) })
        .where(eq(users.id, existing.id));
      if (invite) {
        await inviteGuardian(tx, {
          childUserId: existing.id,
          childName: existing.fullName,
          groupName: group.name,
          guardianEmail: request.guardian_email!,
          publicUrl: options.publicUrl,
        });
      }
    });
    return { userId: existing.id, guardianInvited: invite };
  }

  if (request.under_13) await options.countInvite?.({ guardianEmail: request.guardian_email!, groupId: group.id });
  const passwordHash = await hashPassword(request.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: request.email.trim(),
        passwordHash,
        fullName: request.full_name.trim(),
        activeGroupId: group.id,
        // Under 13 (lag 2018:218, 2 kap. 4 §): the account waits for a guardian's consent (issue 22).
        ...(request.under_13 ? { isUnder13: true, guardianConsent: 'pending' as const } : {}),
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user)
      throw fieldError('EMAIL_TAKEN', 'email', 'Det finns redan ett konto med den e-postadressen. Logga in eller återställ lösenordet.');
    await createMembership(tx, { userId: user.id, groupId: group.id, role: 'seller' });
    if (request.under_13) {
      await inviteGuardian(tx, {
        childUserId: user.id,
        childName: request.full_name.trim(),
        groupName: group.name,
        guardianEmail: request.guardian_email!,
        publicUrl: options.publicUrl,
      });
    }
    return { userId: user.id, guardianInvited: request.under_13 === true };
  });
}
