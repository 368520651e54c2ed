import { and, eq } from 'drizzle-orm';
import type { TClosingNote } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { groups } from '../../db/schema.js';
import { AppError, forbidden } from '../../errors.js';
import { stockholmDate } from '../../lib/dates.js';
import { portal, renderMail } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { writeAudit } from '../audit/write-audit.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';
import { classRecipients, type ClassRecipient } from './class-recipients.js';

/** The note to the guardians: the teacher's own paragraphs, after the portal's words. */
export function closingNoteMail(options: { to: ClassRecipient; groupName: string; text: string; publicUrl: string }): Mail {
  return {
    to: options.to.email,
    ...renderMail({
      subject: portal`Vad pengarna blev: ${options.groupName}`,
      greeting: portal`Hej!`,
      blocks: [
        `Försäljningen för ${options.groupName} är avslutad, och läraren berättar vad pengarna blev:`,
        ...options.text.split(/\n{2,}/),
        'Tack för att ni var med!',
        { action: { label: 'Öppna Säljportalen', url: `${options.publicUrl}/dashboard` } },
      ],
    }),
  };
}

/**
 * What the money became (issue 31 point 5): written by the group's admin (or a superadmin) once
 * the campaign has ended, shown on every pupil's dashboard and guardian view, and mailed to the
 * guardians the first time. A later edit changes what is shown and mails nobody again.
 */
export async function writeClosingNote(
  db: Db,
  options: { actorUserId: number; groupId: number; text: string; now?: Date; publicUrl: string },
): Promise<{ closingNote: TClosingNote; mailed: number }> {
  const today = stockholmDate(options.now ?? new Date());
  return db.transaction(async (tx) => {
    const [group] = await tx
      .select({ name: groups.name, endsOn: groups.campaignEndsOn, writtenBefore: groups.closingNoteAt })
      .from(groups)
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)))
      .for('update');
    if (!group) throw forbidden('Endast gruppens administratörer kan skriva vad pengarna blev');
    if (group.endsOn === null || group.endsOn >= today) {
      throw new AppError('CONFLICT', 'Du kan skriva vad pengarna blev när försäljningen är avslutad');
    }
    const [written] = await tx
      .update(groups)
      .set({ closingNote: options.text, closingNoteAt: new Date() })
      .where(eq(groups.id, options.groupId))
      .returning({ at: groups.closingNoteAt });
    const recipients = group.writtenBefore ? [] : await classRecipients(tx, options.groupId, { teachers: false });
    await enqueueMails(
      tx,
      recipients.map((to) => closingNoteMail({ to, groupName: group.name, text: options.text, publicUrl: options.publicUrl })),
    );
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.closing_note',
      targetType: 'group',
      targetId: options.groupId,
      details: { characters: options.text.length, mailed: recipients.length },
    });
    return { closingNote: { text: options.text, written_at: written!.at!.toISOString() }, mailed: recipients.length };
  });
}
