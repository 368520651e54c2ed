/**
 * Errors that came out of the database driver, marked where the pool hands them over
 * (postgres-pool.ts). A connection reset, a time-out or an `08…` code means the database is away
 * only when the database's connection met it: a client that hangs up on its own request fails
 * with the same `ECONNRESET` (issue 28: 20,246 such hang-ups were logged as the database away).
 */
const fromDriver = new WeakSet<object>();

/** Marks `error` as the driver's and returns it (for `throw` and callbacks). */
export function markDriverError<T>(error: T): T {
  if (typeof error === 'object' && error !== null) fromDriver.add(error);
  return error;
}

export const isDriverError = (error: unknown): boolean => typeof error === 'object' && error !== null && fromDriver.has(error);
