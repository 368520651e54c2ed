export { PrivacyLink } from './components/privacy-link';
