import { describe, expect, it } from 'vitest';
import { statementEffect } from './committed-writes.js';

describe('which statements are writes', () => {
  it('tells transactions apart from the statements in them', () => {
    expect(statementEffect('begin')).toBe('begin');
    expect(statementEffect('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')).toBe('begin');
    expect(statementEffect('start transaction')).toBe('begin');
    expect(statementEffect('commit')).toBe('commit');
    expect(statementEffect('rollback')).toBe('rollback');
    // A nested transaction's end leaves the outer one open.
    expect(statementEffect('rollback to savepoint sp1')).toBe('read');
    expect(statementEffect('savepoint sp1')).toBe('read');
    expect(statementEffect('release savepoint sp1')).toBe('read');
  });

  it('counts everything but reads as a write, also behind comments and in any case', () => {
    for (const read of ['select 1', '  SELECT * from users', '-- why\nselect 1', '/* a */ select 1', 'show server_version', 'listen "x"']) {
      expect(statementEffect(read), read).toBe('read');
    }
    for (const write of [
      'insert into users values (1)',
      'UPDATE groups set name = $1',
      'delete from memberships',
      'with moved as (update orders set x = 1 returning id) select * from moved',
      'truncate orders',
      '/* a */ insert into orders default values',
    ]) {
      expect(statementEffect(write), write).toBe('write');
    }
  });
});
