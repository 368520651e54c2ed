import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation } from './client.js';
import { markDriverError } from './driver-errors.js';
import { PoolQueueFullError, SilentDatabaseError } from './postgres-pool.js';

const withCode = (code: string, message = 'fel') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: a database away or too slow is a 503, nothing else is', () => {
  it.each([
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['lock_timeout', withCode('55P03', 'canceling statement due to lock timeout')],
    ['server shutting down', withCode('57P01', 'terminating connection due to administrator command')],
    ['server starting', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    ['connection exception class 08', withCode('08006')],
    ['idle in transaction timeout', withCode('25P03')],
    ['ended to break a deadlock', withCode('40P01', 'deadlock detected')],
    ['serialization conflict', withCode('40001', 'could not serialize access due to concurrent update')],
    ['refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset', withCode('ECONNRESET', 'read ECONNRESET')],
    ['lost mid-query', new Error('Connection terminated unexpectedly')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ["a connection's own connect timeout", new Error('timeout expired')],
    ['pool queue full', new PoolQueueFullError()],
    ['silent line', new SilentDatabaseError()],
    ['refused on every address', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
  ])('%s', (_name, error) => {
    // As the pool hands it over (postgres-pool.ts marks what comes out of the driver).
    markDriverError(error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // Drizzle wraps the driver's error as its cause.
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: error }))).toBe(true);
  });

  it.each([
    ['unique violation', withCode('23505')],
    ['NUL in text', withCode('22021')],
    ['serialization failure (retry is the caller’s)', withCode('40001')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'Connection terminated'],
  ])('not: %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it.each([
    ['a client that hung up mid-body', withCode('ECONNRESET', 'aborted')],
    ['a client socket reset', withCode('ECONNRESET', 'read ECONNRESET')],
    ['a broken pipe to the client', withCode('EPIPE', 'write EPIPE')],
    ['a timed-out outgoing request (a product image)', withCode('ETIMEDOUT')],
    ['a driver-like message from elsewhere', new Error('Connection terminated unexpectedly')],
    ['a class 08 code from elsewhere', withCode('08006')],
  ])('not: %s, the same code or text not from the database driver (issue 28)', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: error }))).toBe(false);
  });

  it('a cause chain that loops ends', () => {
    const error = new Error('a') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isUniqueViolation(withCode('23505'))).toBe(true);
  });
});
