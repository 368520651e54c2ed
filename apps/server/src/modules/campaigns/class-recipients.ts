import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.js';
import { guardianLinks, memberships, users } from '../../db/schema.js';

export interface ClassRecipient {
  email: string;
  fullName: string;
  as: 'teacher' | 'guardian';
}

/**
 * Who hears how a class's campaign went (issue 31): its admins, and the guardians who approved a
 * pupil of the class, each address once (a teacher who is also a guardian, a guardian of two
 * pupils). Erased accounts hear nothing; an address is needed, so a pupil's own account never is one.
 */
export async function classRecipients(db: Db | Tx, groupId: number, options: { teachers: boolean }): Promise<ClassRecipient[]> {
  const child = alias(users, 'child');
  const guardians = await db
    .selectDistinct({ email: users.email, fullName: users.fullName })
    .from(memberships)
    .innerJoin(child, eq(child.id, memberships.userId))
    .innerJoin(guardianLinks, and(eq(guardianLinks.childUserId, child.id), isNotNull(guardianLinks.approvedAt)))
    .innerJoin(users, eq(users.id, guardianLinks.guardianUserId))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.role, 'seller'), isNull(child.erasedAt), isNull(users.erasedAt)));
  const teachers = options.teachers
    ? await db
        .select({ email: users.email, fullName: users.fullName })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.groupId, groupId), eq(memberships.role, 'admin'), isNull(users.erasedAt)))
    : [];
  const byAddress = new Map<string, ClassRecipient>();
  for (const teacher of teachers)
    if (teacher.email) byAddress.set(teacher.email.toLowerCase(), { ...teacher, email: teacher.email, as: 'teacher' });
  for (const guardian of guardians) {
    const key = guardian.email?.toLowerCase();
    if (key && !byAddress.has(key)) byAddress.set(key, { ...guardian, email: guardian.email!, as: 'guardian' });
  }
  return [...byAddress.values()];
}
