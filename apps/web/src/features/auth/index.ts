// The auth feature's public face: the sign-in page is in the first download, the other pages load
// when first opened (a loader each, so that importing this file does not bring them along).
export { LoginPage } from './login-page';
export const loadRegisterPage = () => import('./register-page');
export const loadRegisterSellerPage = () => import('./register-seller-page');
export const loadForgotPasswordPage = () => import('./forgot-password-page');
export const loadResetPasswordPage = () => import('./reset-password-page');
export const loadAdminLoginPage = () => import('./admin-login-page');
export const loadFirstSignInPage = () => import('./first-sign-in-page');
