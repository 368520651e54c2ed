import { Navigate, createBrowserRouter, useParams, type RouteObject } from 'react-router';
import { paths } from '@/lib/paths';
import { queryClient } from '@/lib/query-client';
import { isAuthenticated } from '@/lib/session';
import { AppLayout } from '@/components/layout/app-layout';
import { loadAccountSettingsPage } from '@/features/account';
import { loadAdminArea } from '@/features/admin';
import {
  LoginPage,
  loadAdminLoginPage,
  loadForgotPasswordPage,
  loadFirstSignInPage,
  loadRegisterPage,
  loadRegisterSellerPage,
  loadResetPasswordPage,
} from '@/features/auth';
import { DashboardPending, groupTotalsQuery, loadDashboardPage, meSummaryQuery } from '@/features/dashboard';
import { GroupSwitcher } from '@/features/group-switcher';
import { loadGuardianConsentPage, loadGuardianPage } from '@/features/guardian';
import { InstallBanner } from '@/features/install-app';
import { leaderboardQuery } from '@/features/leaderboard';
import { loadPrivacyPage } from '@/features/privacy';
import { EntryRedirect, GuestOnly, RequireAuth, RequireSuperadmin } from './guards';
import { NotFoundPage } from './not-found-page';
import { RouteTitle } from './route-title';

function LegacyGroupRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={paths.adminGroup(id)} replace />;
}

function LegacySellerRedirect() {
  const { id = '', userId = '' } = useParams();
  return <Navigate to={paths.adminSellerOrders(id, userId)} replace />;
}

/**
 * The dashboard's figures are asked for while its code is still loading, not after, and the page
 * waits for them up to a second: on a slow phone it then draws once with its figures instead of
 * a placeholder followed by three redraws. Only with a session: a guest goes to the login page
 * without a call that would answer 401.
 */
async function prefetchDashboard() {
  if (!isAuthenticated()) return null;
  const figures = Promise.all([
    queryClient.prefetchQuery(meSummaryQuery),
    queryClient.prefetchQuery(groupTotalsQuery),
    queryClient.prefetchQuery(leaderboardQuery),
  ]);
  await Promise.race([figures, new Promise((resolve) => setTimeout(resolve, 1000))]);
  return null;
}

const lazyDashboardPage = () => loadDashboardPage().then((module) => ({ Component: module.DashboardPage }));

/**
 * The dashboard is where a session lands (after sign-in, and the installed app's start page):
 * app/start.tsx puts its code and figures into the module loader and the query client before the
 * router is even built (main.ts has already sent for both), so that the route's loader and lazy()
 * find them on their way.
 */
export function preloadDashboard(): void {
  if (!isAuthenticated()) return;
  void lazyDashboardPage();
  void prefetchDashboard();
}

/**
 * What a page loaded on demand shows while its code arrives on the first load (React Router's
 * HydrateFallback): nothing, inside the frame, whose header is drawn meanwhile. Without one on
 * each lazy route React Router renders no frame at all and warns in the console on every page.
 */
function PagePending() {
  return null;
}

/** Loaded on demand so a seller's phone never downloads the admin area. */
const adminArea = (): RouteObject => ({
  element: <RequireSuperadmin />,
  // `/admin/*` on the area itself, so /admin (the overview) matches too: a child `*` needs a segment.
  children: [
    {
      path: `${paths.admin}/*`,
      lazy: () => loadAdminArea().then((module) => ({ element: <module.AdminArea notFound={<NotFoundPage />} /> })),
      HydrateFallback: PagePending,
    },
  ],
});

/**
 * Only the sign-in page is part of the first download; the other pages load when first opened
 * (issue 7: /login and /dashboard within 150 KB of JavaScript, gzip).
 */
export const routes: RouteObject[] = [
  {
    element: (
      <>
        <RouteTitle />
        <AppLayout groupSwitcher={<GroupSwitcher />} banner={<InstallBanner />} />
      </>
    ),
    children: [
      { index: true, element: <EntryRedirect /> },
      {
        element: <GuestOnly />,
        children: [
          { path: paths.login, handle: { title: 'Logga in' }, element: <LoginPage /> },
          {
            path: paths.register,
            handle: { title: 'Registrera dig' },
            lazy: () => loadRegisterPage().then((module) => ({ Component: module.RegisterPage })),
            HydrateFallback: PagePending,
          },
          {
            path: paths.registerSeller,
            handle: { title: 'Registrera som säljare' },
            lazy: () => loadRegisterSellerPage().then((module) => ({ Component: module.RegisterSellerPage })),
            HydrateFallback: PagePending,
          },
          {
            path: paths.forgotPassword,
            handle: { title: 'Glömt lösenordet' },
            lazy: () => loadForgotPasswordPage().then((module) => ({ Component: module.ForgotPasswordPage })),
            HydrateFallback: PagePending,
          },
          {
            path: paths.firstSignIn,
            handle: { title: 'Första inloggningen' },
            lazy: () => loadFirstSignInPage().then((module) => ({ Component: module.FirstSignInPage })),
            HydrateFallback: PagePending,
          },
        ],
      },
      // Reachable signed in too: the link comes from a mail and may be opened anywhere.
      {
        path: paths.guardianConsent,
        handle: { title: 'Godkännande' },
        lazy: () => loadGuardianConsentPage().then((module) => ({ Component: module.GuardianConsentPage })),
        HydrateFallback: PagePending,
      },
      {
        path: paths.resetPassword,
        handle: { title: 'Nytt lösenord' },
        lazy: () => loadResetPasswordPage().then((module) => ({ Component: module.ResetPasswordPage })),
        HydrateFallback: PagePending,
      },
      // Public: a parent reads it before their child registers, signed in or not.
      {
        path: paths.privacy,
        handle: { title: 'Så hanterar vi dina uppgifter' },
        lazy: () => loadPrivacyPage().then((module) => ({ Component: module.PrivacyPage })),
        HydrateFallback: PagePending,
      },
      {
        path: paths.adminLogin,
        handle: { title: 'Admin-inloggning' },
        lazy: () => loadAdminLoginPage().then((module) => ({ Component: module.AdminLoginPage })),
        HydrateFallback: PagePending,
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: paths.dashboard,
            handle: { title: 'Översikt' },
            loader: prefetchDashboard,
            lazy: lazyDashboardPage,
            HydrateFallback: DashboardPending,
          },
          {
            path: paths.guardian,
            handle: { title: 'Mina barn' },
            lazy: () => loadGuardianPage().then((module) => ({ Component: module.GuardianPage })),
            HydrateFallback: PagePending,
          },
          {
            path: paths.accountSettings,
            handle: { title: 'Kontoinställningar' },
            lazy: () => loadAccountSettingsPage().then((module) => ({ Component: module.AccountSettingsPage })),
            HydrateFallback: PagePending,
          },
        ],
      },
      { path: '/admin/group/:id', element: <LegacyGroupRedirect /> },
      { path: '/admin/group/:id/seller/:userId', element: <LegacySellerRedirect /> },
      adminArea(),
      { path: '*', handle: { title: 'Sidan finns inte' }, element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
