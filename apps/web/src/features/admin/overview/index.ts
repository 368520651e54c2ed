// The admin's overview.
export { AdminOverviewPage } from './admin-overview-page';
