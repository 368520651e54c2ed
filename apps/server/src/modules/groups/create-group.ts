import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { TCreateGroupResponse, ZCreateGroupRequestSchema } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../lib/mailer.js';
import { hashPassword } from '../../lib/passwords.js';
import { writeAudit } from '../audit/write-audit.js';
import { issuePasswordLink } from '../auth/password-reset.js';
import { insertGroupWithUniqueCode } from './group-code.js';
import { placeUserInGroup } from './place-user-in-group.js';
import { sendWelcomeMail } from './welcome-mail.js';

type CreateGroupInput = z.output<typeof ZCreateGroupRequestSchema>;

/**
 * A new group under a server-made code, optionally with its administrator: an existing account
 * (by e-mail) becomes the group's admin as it is, an unknown address gets an account with the
 * password the superadmin chose, and a welcome mail.
 */
export async function createGroup(
  db: Db,
  options: { actorUserId: number; request: CreateGroupInput; mailer: Mailer; publicUrl: string; log: FastifyBaseLogger },
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
    const choosePasswordLink = placed?.isNewUser
      ? await issuePasswordLink(tx, { userId: placed.userId, publicUrl: options.publicUrl, welcome: true })
      : undefined;
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.create',
      targetType: 'group',
      targetId: group.id,
      details: { name: group.name, code: group.code, ...(placed ? { adminUserId: placed.userId, adminIsNewUser: placed.isNewUser } : {}) },
    });
    return { group, placed, choosePasswordLink };
  });

  const { group, placed, choosePasswordLink } = result;
  if (placed && choosePasswordLink) {
    await sendWelcomeMail(options.mailer, {
      to: placed.email,
      fullName: placed.fullName,
      groupName: group.name,
      role: 'admin',
      publicUrl: options.publicUrl,
      choosePasswordLink,
      passwordGivenByAdmin: true,
    }).catch((error: unknown) => options.log.error({ err: error }, 'kunde inte skicka välkomstmejl'));
  }
  return {
    group: { id: group.id, name: group.name, group_code: group.code },
    admin: placed ? { user_id: placed.userId, email: placed.email, is_new_user: placed.isNewUser } : null,
  };
}
