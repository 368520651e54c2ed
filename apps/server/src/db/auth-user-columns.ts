import { users } from './schema.js';

/** The columns every authenticating query reads (spread them into a select). */
export const authUserColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  isSuperadmin: users.isSuperadmin,
  activeGroupId: users.activeGroupId,
  tokenVersion: users.tokenVersion,
  endedSessions: users.endedSessions,
};
