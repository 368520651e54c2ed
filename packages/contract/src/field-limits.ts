/**
 * The longest text each kind of field takes: the contract's rules say it in their messages ('får
 * vara högst 120 tecken') and the web's inputs carry the same `maxLength` (issue 33), so a person
 * is stopped where the server would stop them.
 */
export const TEXT_LIMITS = {
  name: 120,
  groupName: 120,
  email: 254,
  phone: 40,
  password: 200,
  alias: 40,
  search: 100,
  reason: 300,
  closingNote: 1000,
  buyerGreeting: 300,
} as const;
