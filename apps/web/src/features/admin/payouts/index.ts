// The admin's payouts: the page, and the query keys the live stream refetches.
export { PayoutsPage } from './payouts-page';
export { payoutKeys } from './api/payout-keys';
export { EndedCampaignsToSettle } from './components/ended-campaigns';
