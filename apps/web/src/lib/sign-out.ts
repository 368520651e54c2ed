import { useNavigate } from 'react-router';
import type { TOkResponse } from '@saljportalen/contract';
import { apiJson } from './api-client';
import { forgetSignedInData } from './offline-cache';
import { paths } from './paths';
import { clearSession } from './session';
import { notify } from './toast';

/** Revokes the refresh cookie on the server; rejects when the server could not be reached or failed. */
const revokeRefreshCookie = () => apiJson<TOkResponse>('/api/auth/logout', { method: 'POST', auth: false });

/** Revokes the refresh cookie on the server, then forgets the token here whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await revokeRefreshCookie();
  } finally {
    clearSession({ signedOutHere: true });
    forgetSignedInData();
  }
}

/**
 * 'Logga ut' in the header and in the admin area. Only the server can end the session: the
 * refresh cookie is httpOnly, and while it is valid it signs the person back in on the next visit.
 * So the token and the cached data are forgotten, and 'Utloggad' shown, once the server has
 * revoked the cookie; when it could not, the person stays signed in and is told to try again.
 */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    try {
      await revokeRefreshCookie();
    } catch {
      notify.error('Utloggningen misslyckades', 'Servern kunde inte nås, så du är fortfarande inloggad. Försök igen.');
      return;
    }
    clearSession({ signedOutHere: true });
    // The saved dashboard too: the next person on a shared device must not see it offline.
    forgetSignedInData();
    notify.success('Utloggad');
    navigate(paths.login, { replace: true });
  };
}
