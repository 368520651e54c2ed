import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** The signed-in user of a request, as `app.authenticate` (plugins/auth.ts) leaves it. */
export interface AuthUser {
  id: number;
  /** Null for a class-list pupil, who signs in with a username (issue 31). */
  email: string | null;
  fullName: string;
  isSuperadmin: boolean;
  activeGroupId: number | null;
  /** The session (refresh family) of the access token; none for tokens issued before sessions had ids. */
  sessionId?: string;
}

export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Du är inte inloggad eller sessionen har gått ut');

/** The signed-in user of a route that ran `app.authenticate` first (plugins/auth.ts sets it). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthenticated();
  return request.authUser;
}
