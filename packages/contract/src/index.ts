import { z } from 'zod';
// The Swedish locale alone: `z.locales` would pull every language into the web bundle.
import sv from 'zod/v4/locales/sv.js';

// Validation messages the contract does not word itself (wrong type, missing field) come in Swedish.
z.config(sv());

export * from './common.js';
export * from './field-limits.js';
export * from './text.js';
export * from './class-link.js';
export * from './web-address.js';
export * from './auth.js';
export * from './guardian.js';
export * from './account.js';
export * from './goal-days.js';
export * from './goals.js';
export * from './campaign-days.js';
export * from './campaigns.js';
export * from './seller.js';
export * from './admin.js';
export * from './payouts.js';
export * from './orders.js';
export * from './catalog.js';
export * from './admin-logs.js';
export * from './health.js';
export * from './privacy.js';
export * from './live.js';
export * from './sales-over-time.js';
export * from './public-name.js';
export * from './roster.js';
export * from './printable.js';
