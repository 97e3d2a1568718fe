import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, violatedUniqueConstraint } from '../../../server/db/databaseErrors.ts';

const withCause = (cause: unknown) => Object.assign(new Error('Failed query: INSERT …'), { cause });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a full disk (SQLSTATE 53100) behind Drizzle\'s wrapper', withCause(Object.assign(new Error('could not extend file'), { code: '53100' }))],
    ['out of memory (53200)', Object.assign(new Error('out of memory'), { code: '53200' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a statement over its time limit (57014)', withCause(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))],
    ['a connection cut off mid-transaction, seen by its rollback', withCause(new Error('Client has encountered a connection error and is not queryable'))],
    ['an administrator shutdown (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['ENOSPC from the file system', withCause(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))],
  ])('%s → 503', (_case, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a unique violation (23505)', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error (42601)', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain bug', new TypeError('x is undefined')],
  ])('%s → not 503', (_case, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});

describe('violatedUniqueConstraint', () => {
  const duplicate = 'duplicate key value violates unique constraint "entities_access_token_unique"';
  it.each([
    ['the driver\'s constraint field behind Drizzle\'s wrapper', withCause(Object.assign(new Error(duplicate), { code: '23505', constraint: 'entities_access_token_unique' }))],
    ['PostgreSQL\'s message alone (a driver that drops the fields)', withCause(new Error(duplicate))],
  ])('%s names the constraint', (_case, error) => expect(violatedUniqueConstraint(error)).toBe('entities_access_token_unique'));

  it.each([
    ['a foreign key violation (23503)', Object.assign(new Error('insert or update violates foreign key constraint "x"'), { code: '23503', constraint: 'x' })],
    ['a full disk', Object.assign(new Error('could not extend file'), { code: '53100' })],
    ['a plain bug', new TypeError('x is undefined')],
  ])('%s names none', (_case, error) => expect(violatedUniqueConstraint(error)).toBeUndefined());
});
