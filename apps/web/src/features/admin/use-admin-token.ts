import { useEffect, useReducer } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/lib/paths';
import { getToken, getValidToken, subscribeSession, takeSignedOutHere } from '@/lib/session';
import { notify } from '@/lib/toast';

/**
 * spec §4 and §8: an admin page that finds no sign-in token in storage says 'Saknar auth-token'
 * and leads to /login. Looked for on every page change and whenever another tab changes the
 * stored token (signing out there ends the admin pages here). A token that has only expired is
 * first renewed from the refresh cookie, as every call does; only when there is no session at all
 * is the token missing. Answers whether the page may show: not while the token is looked for, so
 * no call of the page races the check to the login page with a toast of its own.
 */
export function useAdminToken(): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [, recheck] = useReducer((count: number) => count + 1, 0);
  // Read on each render: every page change renders the admin area again.
  const hasToken = getToken() !== null;

  useEffect(() => subscribeSession(recheck), []);

  useEffect(() => {
    if (hasToken) return;
    // A sign-out here says 'Utloggad' itself, and the login page's code may still be on its way
    // when this check runs: a toast of its own would replace that one.
    if (takeSignedOutHere()) {
      navigate(paths.login, { replace: true });
      return;
    }
    let current = true;
    void getValidToken().then((token) => {
      if (!current) return;
      if (token) {
        recheck();
        return;
      }
      // What the signed-out superadmin saw is not kept for whoever signs in next.
      queryClient.clear();
      notify.error('Saknar auth-token', 'Logga in igen för att fortsätta.');
      navigate(paths.login, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [hasToken, location.key, navigate, queryClient]);

  return hasToken;
}
