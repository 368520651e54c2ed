// The admin's audit log.
export { AuditPage } from './audit-page';
