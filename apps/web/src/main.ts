import { DASHBOARD_CALLS, requestEarly } from './lib/early-requests';
import { paths } from './lib/paths';
import { isAuthenticated } from './lib/session';
import './styles.css';

/**
 * The entry is small on purpose (decision 045): it starts the dashboard's calls at once, so that
 * on a slow phone they travel while the app's code (React, the router, the page; index.html
 * preloads it) still downloads, and then loads the app itself (app/start.tsx).
 */
if (window.location.pathname === paths.dashboard && isAuthenticated()) requestEarly(DASHBOARD_CALLS);
void import('./app/start');
