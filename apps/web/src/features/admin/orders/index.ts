// The admin's unattributed orders.
export { UnattributedOrdersPage } from './unattributed-orders-page';
