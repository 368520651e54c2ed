// The install-app feature's public face: app/ and other features import only from here.
export { InstallBanner } from './components/install-banner';
