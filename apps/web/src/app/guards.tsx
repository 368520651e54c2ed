import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { forgetSignedInData, hasOfflineDashboard } from '@/lib/offline-cache';
import { clearSession, getToken, getValidToken, sessionMayBeAlive, wasServerUnreachable } from '@/lib/session';
import { superadminCheckQuery } from '@/features/admin-access';
import { logout } from '@/lib/sign-out';

/**
 * The session could not be checked (no network, or the server's database is away): not a reason
 * to send anyone to sign in again, since the session may well be alive (issue 17).
 */
function ServerUnreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-4 p-6 text-center" role="alert">
      <p className="max-w-md text-ink">Servern svarar inte just nu. Kontrollera din anslutning och försök igen om en stund.</p>
      <Button onClick={onRetry}>Försök igen</Button>
    </div>
  );
}

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
 * Without a saved dashboard it says the server cannot be reached, with a retry. A session the server
 * has ended takes the saved dashboard with it.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const [state, setState] = useState<'checking' | 'allowed' | 'denied' | 'unreachable'>(() => (getToken() ? 'allowed' : 'checking'));
  useEffect(() => {
    if (state !== 'checking') return;
    let cancelled = false;
    void getValidToken().then((token) => {
      if (cancelled) return;
      if (token || (wasServerUnreachable() && hasOfflineDashboard())) return setState('allowed');
      if (sessionMayBeAlive()) return setState('unreachable');
      forgetSignedInData();
      setState('denied');
    });
    return () => {
      cancelled = true;
    };
  }, [state]);
  if (state === 'checking') return <CheckingAccess />;
  if (state === 'unreachable') return <ServerUnreachable onRetry={() => setState('checking')} />;
  if (state === 'denied') return <Navigate to={paths.login} replace />;
  return children ?? <Outlet />;
}

/**
 * The admin area (spec §4): no session → /admin/login; the overview check answering 401 →
 * session cleared and /login; any other failure → /dashboard.
 */
export function RequireSuperadmin() {
  const [hasSession, setHasSession] = useState<boolean | 'unreachable' | null>(() => (getToken() ? true : null));
  useEffect(() => {
    if (hasSession !== null) return;
    void getValidToken().then((token) => setHasSession(token ? true : sessionMayBeAlive() ? 'unreachable' : false));
  }, [hasSession]);
  const check = useQuery({ ...superadminCheckQuery, enabled: hasSession === true });

  if (hasSession === 'unreachable') return <ServerUnreachable onRetry={() => setHasSession(null)} />;
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
