import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink, Navigate, Route, Routes, matchRoutes, useLocation } from 'react-router';
import { LogOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/layout/logo';
import { cn } from '@/lib/cn';
import { documentTitle, useDocumentTitle, type TitledRoute } from '@/lib/document-title';
import { paths } from '@/lib/paths';
import { useSignOut } from '@/lib/sign-out';
import { AuditPage } from './audit';
import { AddUserPage, CreateGroupPage, GroupDetailPage, GroupsPage } from './groups';
import { UnattributedOrdersPage } from './orders';
import { AdminOverviewPage } from './overview';
import { PayoutsPage } from './payouts';
import { SellerOrdersPage, SellersPage } from './sellers';
import { useAdminToken } from './use-admin-token';
import { WebhooksPage } from './webhooks';
import { useLiveAdmin } from './use-live-admin';

const tabs = [
  { to: paths.admin, label: 'Översikt', end: true },
  { to: paths.adminGroups, label: 'Grupper', end: false },
  { to: paths.adminSellers, label: 'Säljare', end: false },
  { to: paths.adminPayouts, label: 'Avräkningar', end: false },
  { to: paths.adminWebhooks, label: 'Webbhookar', end: false },
  { to: paths.adminAudit, label: 'Händelselogg', end: false },
];

/**
 * spec §2 /admin: tabs Översikt, Grupper, Säljare, Avräkningar and a logout button. On a phone the
 * logo and 'Logga ut' share one line, and the tabs are one strip that scrolls sideways (room for
 * the tabs still to come), the chosen tab scrolled into view (issue 19).
 */
function AdminTabs() {
  const signOut = useSignOut();
  const stripRef = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    stripRef.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    // Two rows of fixed height: styles.css places toasts just below them (--toast-top).
    <header id="admin-header" className="border-b border-line bg-white">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-2 px-4">
        <div className="flex min-w-0 items-center gap-2 sm:gap-3">
          <Logo />
          <span className="rounded-full bg-ink px-2 py-0.5 text-xs font-semibold text-white">Admin</span>
        </div>
        <Button variant="outline" size="sm" className="shrink-0" onClick={() => void signOut()}>
          <LogOut aria-hidden="true" className="hidden sm:block" />
          Logga ut
        </Button>
      </div>
      <nav aria-label="Adminmeny" className="mx-auto max-w-6xl">
        <ul ref={stripRef} className="flex h-11 gap-x-1 overflow-x-auto px-4 [scrollbar-width:thin]">
          {tabs.map((tab) => (
            <li key={tab.to} className="shrink-0">
              <NavLink
                to={tab.to}
                end={tab.end}
                className={({ isActive }) =>
                  cn(
                    'inline-flex h-full items-center whitespace-nowrap border-b-2 px-2.5 text-sm font-semibold focus-visible:[outline-offset:-3px] sm:px-3',
                    isActive ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-ink',
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

/**
 * The admin area's pages, relative to /admin, each with its title ('Grupper – Admin – Säljportalen').
 * The area's own route table: the app's router (app/router.tsx) hands it every /admin path.
 */
const adminPages: (TitledRoute & { path: string; element: ReactNode })[] = [
  { path: '', title: 'Översikt', element: <AdminOverviewPage /> },
  { path: 'groups', title: 'Grupper', element: <GroupsPage /> },
  { path: 'groups/create', title: 'Skapa grupp', element: <CreateGroupPage /> },
  { path: 'groups/:id', title: 'Grupp', element: <GroupDetailPage /> },
  { path: 'groups/:id/add-user', title: 'Lägg till användare', element: <AddUserPage /> },
  // spec §2: a seller link without the user id goes back to the group list.
  { path: 'groups/:id/seller', title: 'Grupper', element: <Navigate to={paths.adminGroups} replace /> },
  { path: 'groups/:id/seller/:userId', title: 'Säljarens ordrar', element: <SellerOrdersPage /> },
  { path: 'sellers', title: 'Säljare', element: <SellersPage /> },
  { path: 'payouts', title: 'Avräkningar', element: <PayoutsPage /> },
  { path: 'orders/unattributed', title: 'Ordrar utan säljare', element: <UnattributedOrdersPage /> },
  { path: 'webhooks', title: 'Webbhookar', element: <WebhooksPage /> },
  { path: 'audit', title: 'Händelselogg', element: <AuditPage /> },
];

function useAdminTitle() {
  const location = useLocation();
  const page = matchRoutes(adminPages, location, paths.admin)?.[0]?.route;
  useDocumentTitle(documentTitle(page?.title ?? 'Sidan finns inte', 'Admin'));
}

/**
 * The admin area, loaded as its own chunk. Paths are relative to /admin; `notFound` is the app's
 * 404 page (spec §2 'other'), shown for any /admin path that is not one of these.
 */
export function AdminArea({ notFound }: { notFound: ReactNode }) {
  const hasToken = useAdminToken();
  useLiveAdmin();
  useAdminTitle();
  return (
    <div className="min-h-dvh">
      <AdminTabs />
      <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-8">
        {hasToken ? (
          <Routes>
            {adminPages.map(({ path, element }) => (
              <Route key={path} index={path === ''} path={path || undefined} element={element} />
            ))}
            <Route path="*" element={notFound} />
          </Routes>
        ) : (
          <p role="status" className="py-10 text-center text-muted">
            Kontrollerar behörighet...
          </p>
        )}
      </div>
    </div>
  );
}
