// A statement that takes `seconds` and notes when it ended, outside every transaction (a sequence
// is never rolled back): so a test shows that an answer came before the statement ended — cut
// off at the time limit — by the order of two moments, not by how long the answer took.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../server/db/database.ts';

export interface SlowStatement {
  /** SQL (PL/pgSQL) that sleeps, then notes the end. */
  body: string;
  /**
   * Expects an answer given at `answeredAt` to have come before the statement ended: it was cut off
   * at the limit. PostgreSQL cancels it (it never ends: `mayBeCancelled`); the embedded database
   * runs it to its end after the answer.
   */
  expectCutOff(answeredAt: number, mayBeCancelled: boolean): Promise<void>;
}

export async function slowStatement(db: Database, name: string, seconds: number): Promise<SlowStatement> {
  const sequence = `test_${name}_ended`;
  await db.systemQuery(sql.raw(`CREATE SEQUENCE ${sequence}; GRANT USAGE, UPDATE ON SEQUENCE ${sequence} TO PUBLIC`));
  return {
    body: `PERFORM pg_sleep(${seconds}); PERFORM setval('${sequence}', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);`,
    async expectCutOff(answeredAt, mayBeCancelled) {
      // is_called: the statement ended (and set the time); last_value, when (ms since the epoch)
      const [ended] = await db.systemQuery<{ at: string; called: boolean }>(sql.raw(`SELECT last_value::text AS at, is_called AS called FROM ${sequence}`));
      if (ended.called) expect(answeredAt).toBeLessThan(Number(ended.at));
      else expect(mayBeCancelled, 'the statement never ended').toBe(true);
    },
  };
}
