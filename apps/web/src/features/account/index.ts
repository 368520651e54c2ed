// The account feature's public face: its settings page, loaded when first opened.
export const loadAccountSettingsPage = () => import('./account-settings-page');
