import { aliasedTable, and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TGuardianConsentResponse } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groups, guardianLinks, memberships, removedConsentCodes, users } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { sha256 } from '../../lib/random-codes.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { writeAudit } from '../audit/write-audit.js';
import { approvalReceipt } from './approval-receipt.js';
import { eraseAccount } from '../privacy/erase-account.js';
import { renewLeaderboardVersionsOfMember } from '../figures/leaderboard-version.js';

const unknownCode = () =>
  new AppError('NOT_FOUND', 'Länken till godkännandet finns inte. Kontrollera att hela länken från mejlet kom med.');
const usedCode = () => new AppError('GONE', 'Länken har redan använts. Varje länk till ett godkännande fungerar en gång.');
const expiredCode = () =>
  new AppError('GONE', 'Länken har gått ut. Be barnet att kontakta sin lärare eller ledare så att du får en ny länk.');

/** What a guardian reads on opening the link of a child's account that is gone (issue 33 point 7). */
const REMOVED_MESSAGE = {
  declined: 'Godkännandet avböjdes och barnets konto är borttaget. Du behöver inte göra något mer.',
  withdrawn: 'Samtycket är återkallat och barnets konto är borttaget. Du behöver inte göra något mer.',
  deleted: 'Barnets konto är borttaget. Du behöver inte göra något mer.',
} as const;

/** A code no link has: that of a removed account says so, any other is unknown. */
async function missingLink(db: Db | Tx, code: string): Promise<AppError> {
  const [removed] = await db
    .select({ reason: removedConsentCodes.reason })
    .from(removedConsentCodes)
    .where(eq(removedConsentCodes.codeHash, sha256(code)));
  return removed ? new AppError('ACCOUNT_REMOVED', REMOVED_MESSAGE[removed.reason]) : unknownCode();
}

/**
 * The link of a code, or the Swedish reason it cannot be used: unknown (404), used or expired
 * (410), or its child's account removed (410).
 */
async function usableLink(db: Db | Tx, code: string) {
  const [link] = await db
    .select({
      id: guardianLinks.id,
      childUserId: guardianLinks.childUserId,
      guardianEmail: guardianLinks.guardianEmail,
      codeUsedAt: guardianLinks.codeUsedAt,
      codeExpiresAt: guardianLinks.codeExpiresAt,
      expired: sql<boolean>`${guardianLinks.codeExpiresAt} <= now()`,
    })
    .from(guardianLinks)
    .where(eq(guardianLinks.codeHash, sha256(code)));
  if (!link) throw await missingLink(db, code);
  if (link.codeUsedAt !== null) throw usedCode();
  if (link.expired || link.codeExpiresAt === null) throw expiredCode();
  return link;
}

/** What the consent page shows: who the child is, in which groups, and the address they gave. */
export async function loadGuardianConsent(db: Db, code: string): Promise<TGuardianConsentResponse> {
  const link = await usableLink(db, code);
  const [child] = await db
    .select({ fullName: users.fullName, email: users.email, username: users.username })
    .from(users)
    .where(eq(users.id, link.childUserId));
  if (!child) throw unknownCode();
  const groupRows = await db
    .select({ name: groups.name })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, link.childUserId));
  return {
    child: { full_name: child.fullName, email: child.email, username: child.username, groups: groupRows.map((row) => row.name) },
    guardian_email: link.guardianEmail,
    expires_at: link.codeExpiresAt!.toISOString(),
  };
}

/**
 * Spends the code in the transaction: only one answer ever gets it, whatever arrives at the same
 * moment. Returns the link's id and child, or throws the reason the code is not usable.
 */
async function spendCode(tx: Tx, code: string) {
  const [spent] = await tx
    .update(guardianLinks)
    .set({ codeUsedAt: new Date() })
    .where(and(eq(guardianLinks.codeHash, sha256(code)), isNull(guardianLinks.codeUsedAt), gt(guardianLinks.codeExpiresAt, sql`now()`)))
    .returning({ id: guardianLinks.id, childUserId: guardianLinks.childUserId, guardianEmail: guardianLinks.guardianEmail });
  if (!spent) await usableLink(tx, code);
  if (!spent) throw usedCode();
  return spent;
}

/** What the guardian of a class-list pupil chooses on approving: the pupil's password and public name. */
export interface ClassListChildChoices {
  password?: string;
  publicName?: 'first_name' | 'full_name' | 'alias';
  alias?: string;
}

export type GuardianAccount = { kind: 'existing'; userId: number } | { kind: 'new'; fullName: string; email: string; password: string };

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const notTheInvitedAddress = (invited: string) =>
  new AppError(
    'VALIDATION',
    `Godkännandet görs med ett konto för ${invited}, adressen som barnet angav. ` +
      'Logga in med det kontot eller skapa ett med den adressen. Stämmer inte adressen kan du avböja, så kan barnet registrera sig igen.',
  );

/**
 * Consent comes from the guardian the child named (issue 28): the account must be the invited
 * address's, a grown-up's own (not under 13, not waiting for a consent of its own), and outside
 * every group of the child, so a classmate or the child's teacher cannot make themselves the
 * child's guardian with a code they were shown. Throws the Swedish reason; nothing is spent then.
 */
async function refuseWrongGuardian(tx: Tx, link: { childUserId: number; guardianEmail: string }, guardianUserId: number) {
  if (guardianUserId === link.childUserId) {
    throw new AppError('VALIDATION', 'Barnets eget konto kan inte godkänna sig självt. Logga in med vårdnadshavarens konto.');
  }
  const [guardian] = await tx
    .select({ email: users.email, isUnder13: users.isUnder13, guardianConsent: users.guardianConsent })
    .from(users)
    .where(eq(users.id, guardianUserId));
  if (!guardian) throw unknownCode();
  if (guardian.email === null || !sameAddress(guardian.email, link.guardianEmail)) throw notTheInvitedAddress(link.guardianEmail);
  if (guardian.isUnder13 || guardian.guardianConsent === 'pending') {
    throw new AppError(
      'FORBIDDEN',
      'Ett konto för någon under 13 år, eller ett konto som själv väntar på godkännande, kan inte godkänna. En vuxen vårdnadshavare behöver ett eget konto.',
    );
  }
  const childMembership = aliasedTable(memberships, 'child_membership');
  const [shared] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(childMembership, and(eq(childMembership.groupId, memberships.groupId), eq(childMembership.userId, link.childUserId)))
    .where(eq(memberships.userId, guardianUserId))
    .limit(1);
  if (shared) {
    throw new AppError(
      'FORBIDDEN',
      'Kontot är säljare eller administratör i barnets grupp och kan inte godkänna barnets konto. ' +
        'Godkännandet ska komma från en vårdnadshavare med ett eget konto utanför gruppen.',
    );
  }
}

/**
 * The guardian approves (issue 22): their account (an existing one whose password was checked,
 * or a new one made here) is linked to the child, the code is spent, the child's consent is
 * 'approved' and the child's groups' leaderboards move to a new version. The guardian gets no
 * membership. Only the guardian the child named may (refuseWrongGuardian); the approval is
 * audit-logged. Returns the guardian's user id, to be signed in.
 */
export async function approveGuardianConsent(
  db: Db,
  options: { code: string; account: GuardianAccount; publicUrl: string; child?: ClassListChildChoices },
): Promise<{ guardianUserId: number }> {
  const passwordHash = options.account.kind === 'new' ? await hashPassword(options.account.password) : null;
  const childPasswordHash = options.child?.password ? await hashPassword(options.child.password) : null;
  return db.transaction(async (tx) => {
    const spent = await spendCode(tx, options.code);
    let guardianUserId: number;
    if (options.account.kind === 'existing') {
      guardianUserId = options.account.userId;
    } else {
      // A new account on another address would be made only to be refused.
      if (!sameAddress(options.account.email, spent.guardianEmail)) throw notTheInvitedAddress(spent.guardianEmail);
      const [created] = await tx
        .insert(users)
        .values({ email: options.account.email.trim(), fullName: options.account.fullName.trim(), passwordHash: passwordHash! })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!created) {
        throw new AppError('EMAIL_TAKEN', 'Det finns redan ett konto med den e-postadressen. Välj "Jag har redan ett konto" och logga in.');
      }
      guardianUserId = created.id;
    }
    await refuseWrongGuardian(tx, spent, guardianUserId);
    const [child] = await tx
      .select({ erasedAt: users.erasedAt, fullName: users.fullName, username: users.username })
      .from(users)
      .where(eq(users.id, spent.childUserId));
    if (!child || child.erasedAt !== null) throw unknownCode();
    // A pupil from a class list has no password of their own yet: the guardian chooses it, and
    // the name buyers see, as they approve (issue 31). Refused whole, so the code is not spent.
    if (child.username !== null) {
      if (childPasswordHash === null) throw fieldError('VALIDATION', 'child_password', 'Välj ett lösenord som barnet loggar in med');
      const publicName = options.child?.publicName;
      if (publicName === undefined) throw fieldError('VALIDATION', 'child_public_name', 'Välj hur barnets namn ska visas för köpare');
      await tx
        .update(users)
        .set({
          passwordHash: childPasswordHash,
          tokenVersion: sql`${users.tokenVersion} + 1`,
          publicName,
          alias: publicName === 'alias' ? (options.child?.alias?.trim() ?? null) : null,
        })
        .where(eq(users.id, spent.childUserId));
    }
    await tx.update(guardianLinks).set({ guardianUserId, approvedAt: new Date() }).where(eq(guardianLinks.id, spent.id));
    await tx.update(users).set({ guardianConsent: 'approved' }).where(eq(users.id, spent.childUserId));
    await renewLeaderboardVersionsOfMember(tx, spent.childUserId);
    await writeAudit(tx, {
      actorUserId: guardianUserId,
      action: 'guardian.approve',
      targetType: 'user',
      targetId: spent.childUserId,
      details: {
        guardian_link_id: spent.id,
        account: options.account.kind,
        ...(child.username !== null ? { child_password_set: true } : {}),
      },
    });
    const [guardian] = await tx.select({ email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, guardianUserId));
    const childGroups = await tx
      .select({ name: groups.name })
      .from(memberships)
      .innerJoin(groups, eq(groups.id, memberships.groupId))
      .where(eq(memberships.userId, spent.childUserId))
      .orderBy(groups.name);
    await enqueueMails(tx, [
      approvalReceipt({
        // The guardian's account is the invited address's (refuseWrongGuardian).
        guardian: { fullName: guardian!.fullName, email: guardian!.email ?? spent.guardianEmail },
        childName: child.fullName,
        groups: childGroups.map((group) => group.name),
        at: new Date(),
        publicUrl: options.publicUrl,
      }),
    ]);
    return { guardianUserId };
  });
}

/**
 * The guardian declines: the code is spent and the child's account erased (as the agreement on
 * erasure says). Whoever holds the code may decline, so the entry has no actor.
 */
export async function declineGuardianConsent(db: Db, options: { code: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const spent = await spendCode(tx, options.code);
    await eraseAccount(tx, spent.childUserId, { actorUserId: null, reason: 'guardian_declined' });
    await writeAudit(tx, {
      actorUserId: null,
      action: 'guardian.decline',
      targetType: 'user',
      targetId: spent.childUserId,
      details: { guardian_link_id: spent.id },
    });
  });
}
