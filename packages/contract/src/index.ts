import { z } from 'zod';

// Validation messages the contract does not word itself (wrong type, missing field) come in Swedish.
z.config(z.locales.sv());

export * from './common.js';
export * from './auth.js';
export * from './account.js';
export * from './seller.js';
export * from './admin.js';
export * from './payouts.js';
export * from './orders.js';
