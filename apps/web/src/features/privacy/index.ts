// The privacy feature's public face: other features import only from here.
export { PrivacyLink } from './components/privacy-link';
export const loadPrivacyPage = () => import('./privacy-page');
