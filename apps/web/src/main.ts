import { DASHBOARD_CALLS, requestEarly } from './lib/early-requests';
import { paths } from './lib/paths';
import { isAuthenticated } from './lib/session';
import './styles.css';

/**
 * The entry is small on purpose (decision 045): on the dashboard it starts the page's calls and
 * asks for the page's code at once, so that on a slow phone they travel while the app's code
 * (React, the router; index.html preloads it) still downloads, and then it loads the app itself
 * (app/start.tsx). The router's lazy route finds the page's code on its way, or asks again if it
 * failed.
 */
if (window.location.pathname === paths.dashboard && isAuthenticated()) {
  requestEarly(DASHBOARD_CALLS);
  // The page's own module, not the feature's index.ts: that is in the app's code, which this must not wait for.
  // eslint-disable-next-line import-x/no-restricted-paths
  import('./features/dashboard/dashboard-page').catch(() => undefined);
}
void import('./app/start');
