import { and, eq, exists } from 'drizzle-orm';
import { ZRosterPupilSchema, type TRosterRequest, type TRosterResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, guardianLinks, memberships, users } from '../../db/schema.js';
import { AppError, forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { inviteGuardian } from '../auth/invite-guardian.js';
import { createMembership } from '../memberships/create-membership.js';
import { actsForGroup } from './group-admin-condition.js';
import { makeUsername } from './make-username.js';

/**
 * The password hash of a class-list pupil who has chosen none yet: no argon2 hash, so no password
 * verifies against it. The guardian's approval or the pupil's sign-in slip sets a real one.
 */
export const NO_PASSWORD_YET = '!klasslista';

type Row = TRosterResponse['rows'][number];

const sameName = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('sv');

/**
 * A group's admin (or a superadmin) adds the pupils of a class list (issue 31 point 1). Each row
 * is checked on its own: a refused row says why and stores nothing, a pupil of the group by that
 * name is left as they are (a class-list pupil of theirs without a guardian gets the invitation
 * when the row now has an address), and every other row becomes an account with a username instead of an
 * address (point 2), a seller in the group whose link waits for a guardian's approval; a row with
 * a guardian's address sends that guardian the consent mail. The rows that are added are added
 * in one transaction, with one audit entry.
 */
export async function importRoster(
  db: Db,
  options: { actorUserId: number; request: TRosterRequest; publicUrl: string },
): Promise<{ response: TRosterResponse; guardiansInvited: number }> {
  const { group_id: groupId, pupils } = options.request;
  return db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: groups.id, name: groups.name, archived: groups.archived })
      .from(groups)
      .where(and(eq(groups.id, groupId), actsForGroup(tx, options.actorUserId, groupId)));
    if (!group) throw forbidden('Endast gruppens administratörer kan lägga till elever från en klasslista');
    if (group.archived) throw new AppError('VALIDATION', 'Gruppen är arkiverad och tar inte emot nya säljare.');

    const members = await tx
      .select({
        userId: users.id,
        fullName: users.fullName,
        username: users.username,
        invited: exists(tx.select({ id: guardianLinks.id }).from(guardianLinks).where(eq(guardianLinks.childUserId, users.id))),
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.groupId, groupId));
    const inGroup = new Map(members.map((member) => [sameName(member.fullName), member]));
    const onEarlierRow = new Set<string>();
    const reserved = new Set<string>();
    const rows: Row[] = [];
    const added: { userId: number; username: string }[] = [];
    let guardiansInvited = 0;

    for (const pupil of pupils) {
      const parsed = ZRosterPupilSchema.safeParse({
        full_name: pupil.full_name,
        guardian_email: pupil.guardian_email?.trim() ? pupil.guardian_email : undefined,
      });
      if (!parsed.success) {
        const reason = parsed.error.issues[0]?.message ?? 'Raden kunde inte läsas';
        rows.push({ full_name: pupil.full_name.trim(), outcome: 'refused', reason, username: null, guardian_invited: false });
        continue;
      }
      const fullName = parsed.data.full_name.trim().replace(/\s+/g, ' ');
      const key = sameName(fullName);
      const member = inGroup.get(key);
      if (member) {
        // A class-list pupil with no guardian yet gets one when a later list gives the address: the
        // only way such a pupil's link becomes active.
        const invite = member.username !== null && !member.invited && parsed.data.guardian_email !== undefined;
        if (invite) {
          await inviteGuardian(tx, {
            childUserId: member.userId,
            childName: member.fullName,
            groupName: group.name,
            guardianEmail: parsed.data.guardian_email!,
            publicUrl: options.publicUrl,
            addedFromClassList: true,
          });
          member.invited = true;
          guardiansInvited += 1;
        }
        rows.push({ full_name: fullName, outcome: 'already_member', reason: null, username: member.username, guardian_invited: invite });
        continue;
      }
      if (onEarlierRow.has(key)) {
        const reason = 'Samma namn står på en rad ovanför. Skriv till exempel en initial så att namnen skiljer sig åt.';
        rows.push({ full_name: fullName, outcome: 'refused', reason, username: null, guardian_invited: false });
        continue;
      }
      onEarlierRow.add(key);
      const username = await makeUsername(tx, fullName, reserved);
      const [user] = await tx
        .insert(users)
        .values({
          username,
          fullName,
          passwordHash: NO_PASSWORD_YET,
          activeGroupId: groupId,
          // Whatever the pupil's age, a guardian approves before the link is active (issue 31).
          guardianConsent: 'pending',
        })
        .returning({ id: users.id });
      await createMembership(tx, { userId: user!.id, groupId, role: 'seller' });
      const guardianEmail = parsed.data.guardian_email;
      if (guardianEmail) {
        await inviteGuardian(tx, {
          childUserId: user!.id,
          childName: fullName,
          groupName: group.name,
          guardianEmail,
          publicUrl: options.publicUrl,
          addedFromClassList: true,
        });
        guardiansInvited += 1;
      }
      added.push({ userId: user!.id, username });
      rows.push({ full_name: fullName, outcome: 'added', reason: null, username, guardian_invited: Boolean(guardianEmail) });
    }

    const refused = rows.filter((row) => row.outcome === 'refused').length;
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.roster_import',
      targetType: 'group',
      targetId: groupId,
      details: {
        rows: rows.length,
        added: added.length,
        already_member: rows.length - added.length - refused,
        refused,
        guardians_invited: guardiansInvited,
        user_ids: added.map((row) => row.userId),
      },
    });
    return { response: { rows, added: added.length, refused }, guardiansInvited };
  });
}
