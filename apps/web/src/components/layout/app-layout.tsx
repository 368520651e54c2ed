import { useEffect, type ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { UNAUTHORIZED_EVENT } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { forgetSignedInData } from '@/lib/offline-cache';
import { paths } from '@/lib/paths';
import { notifySessionEnded } from '@/lib/session';
import { Footer } from './footer';
import { Header } from './header';

/** The frame of every page; turns an 'unauthorized' from any call into the login page (spec §8). */
export function AppLayout({ groupSwitcher, banner }: { groupSwitcher?: ReactNode; banner?: ReactNode }) {
  const navigate = useNavigate();
  useEffect(() => {
    const onUnauthorized = () => {
      forgetSignedInData();
      notifySessionEnded();
      navigate(paths.login, { replace: true });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [navigate]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:p-3"
      >
        Hoppa till innehållet
      </a>
      <Header groupSwitcher={groupSwitcher} />
      <main id="main" className="flex-1" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      {/* After the page, in its own space at the page's end (the install banner sticks to the
          screen's foot while the page scrolls, but never covers the page's last lines). */}
      {banner}
    </div>
  );
}

export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mx-auto w-full max-w-6xl px-4 py-6 sm:py-8', className)}>{children}</div>;
}
