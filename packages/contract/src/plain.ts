/**
 * The contract's plain values and functions, without zod or a schema: `@saljportalen/contract/plain`.
 * What the web's first paint (/login, /dashboard) needs from the contract comes from here, so that
 * zod and the schemas (about 30 KB gzip) load only with the forms that check with them (decision 045).
 * Everything here is also exported by the package's main entry.
 */
export * from './campaign-days.js';
export * from './class-link.js';
export * from './catalog.js';
export * from './field-limits.js';
export * from './goal-days.js';
export * from './text.js';
export * from './printable.js';
