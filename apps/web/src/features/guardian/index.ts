// The guardian feature's public face (issue 22): other features import only from here.
export { GuardianConsentPage } from './consent-page';
export { GuardianPage } from './guardian-page';
