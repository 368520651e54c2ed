// The class list with the protected-identity mark: other features import only from here.
export { ProtectedIdentityCard } from './components/protected-identity-card';
export { ClassPayoutAccountCard } from './components/class-payout-account-card';
export { ClassOrdersCard } from './components/class-orders-card';
export { MoveOrderDialog } from './components/move-order-dialog';
export { useClassPupils } from './api/class-members';
export { ClassListImportCard } from './components/class-list-import-card';
