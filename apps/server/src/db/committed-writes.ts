/**
 * Tells when this process has committed a write: a transaction's COMMIT, or a statement outside
 * any transaction that is not a plain read. What keeps state from the database in memory (the read
 * model, decision 047) listens, so that nothing it answers predates a change this very process has
 * already made, whichever code made it: a request, a scheduled job, a test's own SQL.
 *
 * Seen at the driver, for both drivers: every node-postgres connection of the pool, and PGlite's
 * one connection. A SELECT that writes through a function it calls (`select rebuild_figures()`
 * outside a transaction) is not seen; run such a thing in a transaction.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export type WriteListener = () => void;

export class CommittedWrites {
  private readonly listeners = new Set<WriteListener>();

  /** Calls `listener` after each committed write of this process; returns the unsubscribe. */
  onWrite(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }
}

type Effect = 'begin' | 'commit' | 'rollback' | 'read' | 'write';

/** What a statement does to the transaction state, and whether it may write. */
export function statementEffect(text: string): Effect {
  const head = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([a-z]+)(?:\s+([a-z]+))?/i.exec(text);
  const word = head?.[1]?.toLowerCase();
  const next = head?.[2]?.toLowerCase();
  switch (word) {
    case 'begin':
    case 'start':
      return 'begin';
    case 'commit':
    case 'end':
      return 'commit';
    case 'rollback':
    case 'abort':
      // `rollback to savepoint` ends a nested transaction only.
      return next === 'to' ? 'read' : 'rollback';
    case 'select':
    case 'show':
    case 'listen':
    case 'unlisten':
    case 'savepoint':
    case 'release':
    case 'set':
    case 'explain':
      return 'read';
    default:
      return 'write';
  }
}

/**
 * Follows one node-postgres connection's statements (promise or callback style: drizzle uses the
 * one, the pool's own `query` the other) and reports committed writes.
 */
export function watchPostgresConnection(client: pg.ClientBase, writes: CommittedWrites): void {
  let inTransaction = false;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const config = args[0] as string | { text?: string } | undefined;
    const text = typeof config === 'string' ? config : config?.text;
    const effect = text === undefined ? 'read' : statementEffect(text);
    let reports = false;
    if (effect === 'begin') inTransaction = true;
    else if (effect === 'rollback') inTransaction = false;
    else if (effect === 'commit') {
      inTransaction = false;
      reports = true;
    } else if (effect === 'write' && !inTransaction) reports = true;
    if (!reports) return query(...args);
    const callbackAt = args.findIndex((arg) => typeof arg === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (error: unknown, result: unknown) => void;
      args[callbackAt] = (error: unknown, result: unknown) => {
        if (!error) writes.committed();
        callback(error, result);
      };
      return query(...args);
    }
    return (query(...args) as Promise<unknown>).then((result) => {
      writes.committed();
      return result;
    });
  };
}

/** Follows PGlite's connection: statements outside a transaction, and each transaction that commits. */
export function watchPglite(client: PGlite, writes: CommittedWrites): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  const reported = async <Result>(result: Promise<Result>, write: boolean): Promise<Result> => {
    const value = await result;
    if (write) writes.committed();
    return value;
  };
  client.query = ((text: string, ...rest: unknown[]) =>
    reported((query as (...args: unknown[]) => Promise<unknown>)(text, ...rest), statementEffect(text) !== 'read')) as typeof client.query;
  client.exec = ((text: string, ...rest: unknown[]) =>
    reported((exec as (...args: unknown[]) => Promise<unknown>)(text, ...rest), statementEffect(text) !== 'read')) as typeof client.exec;
  client.transaction = ((callback: Parameters<typeof transaction>[0]) =>
    reported(transaction(callback), true)) as typeof client.transaction;
}
