import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { forgetSignedInData, hasOfflineDashboard } from '@/lib/offline-cache';
import { clearSession, getToken, getValidToken, wasServerUnreachable } from '@/lib/session';
import { superadminCheckQuery } from '@/features/admin-access/api/superadmin-check';
import { logout } from '@/lib/sign-out';

function CheckingAccess() {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center" role="status" aria-live="polite">
      <p className="text-muted">Kontrollerar behörighet...</p>
    </div>
  );
}

/** Guests only: a signed-in visitor goes to the dashboard. /login?expired=1 first ends the session (spec §2). */
export function GuestOnly() {
  const [params] = useSearchParams();
  const location = useLocation();
  const endsSession = location.pathname === paths.login && params.get('expired') === '1';
  if (endsSession) clearSession();
  useEffect(() => {
    // The refresh cookie goes too, or the next signed-in page would quietly start a new session.
    if (endsSession) void logout();
  }, [endsSession]);
  return getToken() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}

/**
 * Signed-in pages: 'checking' until a usable token is found (or refreshed), else /login (spec §4).
 * Without network the session cannot be renewed but has not ended: a device that has the
 * dashboard saved shows it (issue 19), and the calls renew the session once the network is back.
 * A session the server has ended takes the saved dashboard with it.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const [state, setState] = useState<'checking' | 'allowed' | 'denied'>(() => (getToken() ? 'allowed' : 'checking'));
  useEffect(() => {
    if (state !== 'checking') return;
    let cancelled = false;
    void getValidToken().then((token) => {
      if (cancelled) return;
      if (token || (wasServerUnreachable() && hasOfflineDashboard())) return setState('allowed');
      forgetSignedInData();
      setState('denied');
    });
    return () => {
      cancelled = true;
    };
  }, [state]);
  if (state === 'checking') return <CheckingAccess />;
  if (state === 'denied') return <Navigate to={paths.login} replace />;
  return children ?? <Outlet />;
}

/**
 * The admin area (spec §4): no session → /admin/login; the overview check answering 401 →
 * session cleared and /login; any other failure → /dashboard.
 */
export function RequireSuperadmin() {
  const [hasSession, setHasSession] = useState<boolean | null>(() => (getToken() ? true : null));
  useEffect(() => {
    if (hasSession !== null) return;
    void getValidToken().then((token) => setHasSession(Boolean(token)));
  }, [hasSession]);
  const check = useQuery({ ...superadminCheckQuery, enabled: hasSession === true });

  if (hasSession === false) return <Navigate to={paths.adminLogin} replace />;
  if (hasSession === null || check.isPending) return <CheckingAccess />;
  if (check.isError) {
    if (check.error instanceof ApiError && check.error.status === 401) {
      clearSession();
      return <Navigate to={paths.login} replace />;
    }
    return <Navigate to={paths.dashboard} replace />;
  }
  return <Outlet />;
}

/** `/`: the dashboard when signed in, otherwise the login page. */
export function EntryRedirect() {
  return <Navigate to={getToken() ? paths.dashboard : paths.login} replace />;
}
