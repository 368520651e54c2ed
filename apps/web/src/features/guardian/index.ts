// The guardian feature's public face (issue 22): its pages, each loaded when first opened.
export const loadGuardianConsentPage = () => import('./consent-page');
export const loadGuardianPage = () => import('./guardian-page');
