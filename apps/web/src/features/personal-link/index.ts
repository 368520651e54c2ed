// The personal-link feature's public face: other features import only from here.
export { PersonalLinkCard } from './components/personal-link-card';
