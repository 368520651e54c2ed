import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { TCreateGroupResponse, ZCreateGroupRequestSchema } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { enqueueMails, type MailOutbox } from '../../db/mail-outbox.js';
import { hashPassword } from '../../lib/passwords.js';
import { writeAudit } from '../audit/write-audit.js';
import { issuePasswordLink } from '../auth/password-reset.js';
import { insertGroupWithUniqueCode } from './group-code.js';
import { placeUserInGroup } from './place-user-in-group.js';
import { welcomeMail } from './welcome-mail.js';

type CreateGroupInput = z.output<typeof ZCreateGroupRequestSchema>;

/**
 * A new group under a server-made code, optionally with its administrator: an existing account
 * (by e-mail) becomes the group's admin as it is, an unknown address gets an account with the
 * password the superadmin chose, and a welcome mail.
 */
export async function createGroup(
  db: Db,
  options: { actorUserId: number; request: CreateGroupInput; mailOutbox: MailOutbox; publicUrl: string; log: FastifyBaseLogger },
): Promise<TCreateGroupResponse> {
  const { request } = options;
  const admin = request.admin ?? undefined;
  const result = await db.transaction(async (tx) => {
    const group = await insertGroupWithUniqueCode(tx, { name: request.group_name });
    const placed = admin
      ? await placeUserInGroup(tx, {
          groupId: group.id,
          email: admin.email,
          role: 'admin',
          newUser: { fullName: admin.full_name, phone: admin.phone, passwordHash: () => hashPassword(admin.password) },
        })
      : undefined;
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.create',
      targetType: 'group',
      targetId: group.id,
      details: { name: group.name, code: group.code, ...(placed ? { adminUserId: placed.userId, adminIsNewUser: placed.isNewUser } : {}) },
    });
    if (placed?.isNewUser) {
      const choosePasswordLink = await issuePasswordLink(tx, { userId: placed.userId, publicUrl: options.publicUrl, welcome: true });
      await enqueueMails(tx, [
        welcomeMail({
          to: placed.email,
          fullName: placed.fullName,
          groupName: group.name,
          role: 'admin',
          publicUrl: options.publicUrl,
          choosePasswordLink,
          passwordGivenByAdmin: true,
        }),
      ]);
    }
    return { group, placed };
  });

  const { group, placed } = result;
  if (placed?.isNewUser) await options.mailOutbox.deliverSoon();
  return {
    group: { id: group.id, name: group.name, group_code: group.code },
    admin: placed ? { user_id: placed.userId, email: placed.email, is_new_user: placed.isNewUser } : null,
  };
}
