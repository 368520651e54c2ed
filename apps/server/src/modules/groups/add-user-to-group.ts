import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { TAddGroupUserResponse, ZAddGroupUserRequestSchema } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { enqueueMails, type MailOutbox } from '../../db/mail-outbox.js';
import { hashPassword } from '../../lib/passwords.js';
import { writeAudit } from '../audit/write-audit.js';
import { issuePasswordLink } from '../auth/password-reset.js';
import { groupNotFound } from './group-queries.js';
import { placeUserInGroup } from './place-user-in-group.js';
import { welcomeMail } from './welcome-mail.js';

/**
 * Spec §3 add user. An existing account is added to the group (or gets the new role); for an
 * unknown address an account is created with a password nobody knows, and the welcome mail carries
 * a single-use link to choose one.
 */
export async function addUserToGroup(
  db: Db,
  options: {
    actorUserId: number;
    groupId: number;
    request: z.output<typeof ZAddGroupUserRequestSchema>;
    mailOutbox: MailOutbox;
    publicUrl: string;
    log: FastifyBaseLogger;
  },
): Promise<TAddGroupUserResponse> {
  const { request } = options;
  const placed = await db.transaction(async (tx) => {
    const [group] = await tx.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, options.groupId));
    if (!group) throw groupNotFound();
    const placed = await placeUserInGroup(tx, {
      groupId: group.id,
      email: request.email,
      role: request.role,
      newUser: {
        fullName: request.full_name,
        phone: request.phone,
        passwordHash: () => hashPassword(crypto.randomBytes(32).toString('base64url')),
      },
    });
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.add_user',
      targetType: 'group',
      targetId: group.id,
      details: { userId: placed.userId, role: request.role, previousRole: placed.previousRole, isNewUser: placed.isNewUser },
    });
    // Made with the account and queued in its transaction, so a welcome mail never carries a link
    // to an account that was rolled back, and is never lost once the account exists.
    if (placed.isNewUser) {
      const choosePasswordLink = await issuePasswordLink(tx, { userId: placed.userId, publicUrl: options.publicUrl, welcome: true });
      await enqueueMails(tx, [
        welcomeMail({
          to: placed.email,
          fullName: placed.fullName,
          groupName: group.name,
          role: request.role,
          publicUrl: options.publicUrl,
          choosePasswordLink,
          passwordGivenByAdmin: false,
        }),
      ]);
    }
    return placed;
  });

  if (placed.isNewUser) await options.mailOutbox.deliverSoon();
  return { user: { id: placed.userId, email: placed.email, role: request.role, is_new_user: placed.isNewUser } };
}
