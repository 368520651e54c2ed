import { ApiError, NO_CONNECTION } from './api-client';

type Contract = typeof import('@saljportalen/contract');

/**
 * The contract's zod schemas for a form on the dashboard, loaded when the form is first used rather
 * than with the page (decision 045): zod and the schemas are about 30 KB gzip, more than the
 * dashboard's own code, and most visits open no form. A form asks for them when it opens and
 * waits for them when it is sent. The page's plain helpers come from `@saljportalen/contract/plain`;
 * pages loaded on demand import the contract as usual.
 */
export function loadContractSchemas(): Promise<Contract> {
  return import('@saljportalen/contract').catch(() => {
    // The module did not arrive (the network is gone, or a new version replaced it): said as any
    // call that cannot reach the server is.
    throw new ApiError(0, NO_CONNECTION, 'OFFLINE');
  });
}
