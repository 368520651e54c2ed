/** Query keys of the payouts page, in one place so a change can refresh exactly what it touched. */
export const payoutKeys = {
  all: ['admin-payouts'] as const,
  lists: () => [...payoutKeys.all, 'list'] as const,
};
