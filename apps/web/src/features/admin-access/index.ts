// The admin-access feature's public face: other features import only from here.
export { superadminCheckQuery, useIsSuperadmin } from './api/superadmin-check';
