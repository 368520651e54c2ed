// The admin's sellers: the list, and one seller's orders in a group.
export { SellerOrdersPage } from './seller-orders-page';
export { SellersPage } from './sellers-page';
