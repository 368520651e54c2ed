// The dashboard feature's public face: what app/ needs to load the page and ask for its figures early.
export { groupTotalsQuery } from './api/group-totals';
export { meSummaryQuery } from './api/me-summary';
export { DashboardPending } from './dashboard-pending';
// Loaded when first opened; main.ts asks for the same module early on the dashboard (decision 045).
export const loadDashboardPage = () => import('./dashboard-page');
