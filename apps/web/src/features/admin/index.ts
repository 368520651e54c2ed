// The admin area's public face: loaded on demand, so that a seller's phone never downloads it.
export const loadAdminArea = () => import('./admin-routes');
