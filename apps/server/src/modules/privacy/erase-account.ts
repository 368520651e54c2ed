import { firstNameOf } from '../../lib/format.js';
import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { ERASED_SELLER_NAME } from '@saljportalen/contract';
import { isUniqueViolation, type Tx } from '../../db/client.js';
import {
  groups,
  guardianLinks,
  linkClicksPerDay,
  mailOutbox,
  memberships,
  passwordResetCodes,
  signInSlipCodes,
  refreshTokens,
  removedConsentCodes,
  retiredLinkCodes,
  users,
} from '../../db/schema.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { AppError } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { erasureReceipt, type ErasureReason } from './erasure-receipts.js';

export type { ErasureReason };

/** What no argon2 hash can be: verifying any password against it fails (lib/passwords.ts). */
const UNUSABLE_PASSWORD_HASH = '!borttagen';

/**
 * A unique address nobody can own, so the real one can register again: in the `.invalid` domain
 * (RFC 2606), which the contract's address rule refuses, and with a ':' no address a person types
 * can hold, so not even an account made before that rule can stand in its way (decision 050).
 */
export const erasedEmail = (userId: number) => `borttagen:${userId}@raderad.invalid`;

/** Why an erasure could not finish, in Swedish: nothing was changed, and it can be tried again. */
export const ERASURE_BLOCKED_MESSAGE =
  'Kontot kunde inte raderas eftersom ett annat konto har adressen som ett raderat konto får. Ingenting har ändrats. Kontakta Säljportalen så hjälper vi till.';

/**
 * The link code of an erased membership: unique, and outside the alphabet a personal link or a
 * Shopify order's code is read in (`[A-Z0-9_-]`), so the link page treats the link as unknown and
 * an order carrying the old code stays unattributed for the superadmin. The old code is never
 * given to anyone else by this: codes are random and checked for uniqueness when made.
 */
export const erasedLinkCode = (membershipId: number) => `~borttagen-${membershipId}`;

/**
 * Erases an account (issue 22, decision 033). The users row stays as a tombstone named
 * 'Borttagen säljare' with every personal field blanked, so that orders, order lines and payouts
 * keep pointing at its memberships and no group's totals change. Sessions end; reset codes,
 * guardian links, link clicks and every mail to or about the person (queued or sent, decision
 * 050) go; the consent codes are kept as hashes, so an old link says the account is gone, and each
 * guardian who approved gets a receipt that does not name the child (decision 064). The audit
 * entry is written in the same transaction and holds no personal data.
 *
 * Refused with 409 for a superadmin, for an account already erased, for the last admin of a
 * group that is not archived (the group needs another admin first), and when the tombstone's
 * address is taken (it cannot be, decision 050; if it ever is, the erasure is refused, not failed).
 */
export async function eraseAccount(tx: Tx, userId: number, options: { actorUserId: number | null; reason: ErasureReason }): Promise<void> {
  const [user] = await tx
    .select({ id: users.id, email: users.email, fullName: users.fullName, isSuperadmin: users.isSuperadmin, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw new AppError('NOT_FOUND', 'Kontot finns inte');
  if (user.erasedAt) throw new AppError('CONFLICT', 'Kontot är redan raderat');
  if (user.isSuperadmin) throw new AppError('CONFLICT', 'Ett superadministratörskonto kan inte raderas');

  await refuseLastAdmin(tx, userId);

  const owned = await tx.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, userId));
  const membershipIds = owned.map((membership) => membership.id);

  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
  await tx.delete(signInSlipCodes).where(eq(signInSlipCodes.userId, userId));
  // Before the guardian links go: they name whom mail about the child was sent to, who approved,
  // and the consent codes a guardian may still open.
  await deleteMailOf(tx, userId, user);
  const receipts = await guardiansToTell(tx, userId);
  await rememberRemovedConsentCodes(tx, userId, options.reason);
  await tx.delete(guardianLinks).where(or(eq(guardianLinks.childUserId, userId), eq(guardianLinks.guardianUserId, userId)));
  if (membershipIds.length > 0) {
    await tx.delete(linkClicksPerDay).where(inArray(linkClicksPerDay.membershipId, membershipIds));
    // The old link's buyer page says the link is no longer used (issue 32): only its hash is kept.
    await tx.execute(sql`insert into ${retiredLinkCodes} (code_hash)
                         select encode(sha256(convert_to(${memberships.linkCode}, 'UTF8')), 'hex') from ${memberships}
                          where ${inArray(memberships.id, membershipIds)}
                         on conflict do nothing`);
    await tx
      .update(memberships)
      .set({ linkCode: sql`'~borttagen-' || ${memberships.id}`, protectedIdentity: false, personalGoalOre: null })
      .where(inArray(memberships.id, membershipIds));
  }

  // The name change also gives each of the person's groups a new leaderboard version (the
  // trigger on users.full_name), so no cached leaderboard shows the old name.
  await tombstone(tx, userId);
  // After the erasure's own deletions, so the receipts are not among the mail it removes.
  await enqueueMails(
    tx,
    receipts.guardians.map((guardian) => erasureReceipt({ guardian, reason: options.reason, groups: receipts.groups, at: new Date() })),
  );

  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: 'account.erase',
    targetType: 'user',
    targetId: userId,
    details: { reason: options.reason, memberships: membershipIds.length },
  });
}

/**
 * A group that is still running needs an admin: the last one cannot be erased. The groups are
 * locked first, so two admins of one group erasing themselves at once cannot both pass.
 */
async function refuseLastAdmin(tx: Tx, userId: number): Promise<void> {
  const administered = await tx
    .select({ id: groups.id, name: groups.name })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'admin'), eq(groups.archived, false)))
    .orderBy(groups.id)
    .for('update', { of: groups });
  for (const group of administered) {
    const [other] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.groupId, group.id), eq(memberships.role, 'admin'), ne(memberships.userId, userId), isNull(users.erasedAt)))
      .limit(1);
    if (!other) {
      throw new AppError(
        'CONFLICT',
        `${group.name} har ingen annan administratör. Gruppen behöver en annan administratör innan kontot kan raderas.`,
      );
    }
  }
}

/**
 * The row becomes the tombstone. Its address cannot be taken (decision 050), but should a row
 * ever hold it, the unique index refuses the change: that is a 409 that changes nothing, never a
 * 500, so the person, their guardian or the operator is told and the retention job goes on.
 */
async function tombstone(tx: Tx, userId: number): Promise<void> {
  try {
    await tx
      .update(users)
      .set({
        email: erasedEmail(userId),
        username: null,
        passwordHash: UNUSABLE_PASSWORD_HASH,
        fullName: ERASED_SELLER_NAME,
        phone: null,
        alias: null,
        publicName: 'first_name',
        activeGroupId: null,
        isUnder13: false,
        guardianConsent: null,
        saleMail: false,
        weeklySummary: false,
        lastSignInAt: null,
        endedSessions: [],
        tokenVersion: sql`${users.tokenVersion} + 1`,
        erasedAt: new Date(),
      })
      .where(eq(users.id, userId));
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', ERASURE_BLOCKED_MESSAGE);
    throw error;
  }
}

/**
 * The guardians who approved the child's account, each told by a receipt when it goes (issue 33
 * point 7), and the child's groups the receipt names instead of the child.
 */
async function guardiansToTell(tx: Tx, childUserId: number) {
  const guardianRows = await tx
    .select({ email: users.email, fullName: users.fullName })
    .from(guardianLinks)
    .innerJoin(users, eq(users.id, guardianLinks.guardianUserId))
    .where(and(eq(guardianLinks.childUserId, childUserId), isNotNull(guardianLinks.approvedAt), isNull(users.erasedAt)));
  // A guardian's account is the invited address's, so each has one.
  const guardians = guardianRows.flatMap((guardian) => (guardian.email === null ? [] : [{ ...guardian, email: guardian.email }]));
  if (guardians.length === 0) return { guardians, groups: [] };
  const named = await tx
    .select({ name: groups.name })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, childUserId))
    .orderBy(groups.name);
  return { guardians, groups: named.map((group) => group.name) };
}

const REMOVED_BECAUSE: Record<ErasureReason, 'declined' | 'withdrawn' | 'deleted'> = {
  guardian_declined: 'declined',
  guardian_withdrew: 'withdrawn',
  self: 'deleted',
  superadmin: 'deleted',
  retention: 'deleted',
};

/** The child's consent codes, by hash, so a link opened later says the account is gone (issue 33 point 7). */
async function rememberRemovedConsentCodes(tx: Tx, childUserId: number, reason: ErasureReason): Promise<void> {
  const codes = await tx
    .select({ codeHash: guardianLinks.codeHash })
    .from(guardianLinks)
    .where(and(eq(guardianLinks.childUserId, childUserId), isNotNull(guardianLinks.codeHash)));
  if (codes.length === 0) return;
  await tx
    .insert(removedConsentCodes)
    .values(codes.map(({ codeHash }) => ({ codeHash: codeHash!, reason: REMOVED_BECAUSE[reason] })))
    .onConflictDoNothing();
}

/**
 * Every mail to or about the person, queued or sent (issue 28, decision 050): mail to their
 * address; mail queued in the same transaction as one to their address (its `created_at` is that
 * transaction's `now()`), such as the notice of an address change sent to the old address; and
 * mail to their guardians that names them (the consent request, a sale mail). A guardian's mail
 * about another child, or their own, names someone else and stays. The outbox file of each goes
 * with its row (`app.mailOutbox.forgetFiles`).
 */
async function deleteMailOf(tx: Tx, userId: number, user: { email: string | null; fullName: string }): Promise<void> {
  const guardians = await tx
    .select({ invited: guardianLinks.guardianEmail, account: users.email })
    .from(guardianLinks)
    .leftJoin(users, eq(users.id, guardianLinks.guardianUserId))
    .where(eq(guardianLinks.childUserId, userId));
  const guardianAddresses = [
    ...new Set(
      guardians.flatMap((guardian) => [guardian.invited, guardian.account ?? guardian.invited]).map((address) => address.toLowerCase()),
    ),
  ];
  const name = firstNameOf(user.fullName);
  // A class-list pupil has no address of their own; the mail about them went to the guardians.
  const toPerson = user.email === null ? sql`false` : eq(sql`lower(${mailOutbox.to})`, user.email.toLowerCase());
  await tx
    .delete(mailOutbox)
    .where(
      or(
        toPerson,
        inArray(mailOutbox.createdAt, tx.select({ createdAt: mailOutbox.createdAt }).from(mailOutbox).where(toPerson)),
        guardianAddresses.length > 0 && name !== ''
          ? and(
              inArray(sql`lower(${mailOutbox.to})`, guardianAddresses),
              sql`strpos(${mailOutbox.subject} || ' ' || ${mailOutbox.text}, ${name}) > 0`,
            )
          : undefined,
      ),
    );
}
