// A statement that takes `seconds` and notes when it ended, outside every transaction (a sequence
// is never rolled back): so a test shows that an answer came before the statement ended — cut
// off at the time limit — by the order of two moments, not by how long the answer took.
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/database.ts';

export interface SlowStatement {
  /** SQL (PL/pgSQL) that sleeps, then notes the end. */
  body: string;
  /** When the statement ended (ms since the epoch), or null while it never did (it was cancelled). */
  endedAt(): Promise<number | null>;
}

export async function slowStatement(db: Database, name: string, seconds: number): Promise<SlowStatement> {
  const sequence = `test_${name}_ended`;
  await db.systemQuery(sql.raw(`CREATE SEQUENCE ${sequence}; GRANT USAGE, UPDATE ON SEQUENCE ${sequence} TO PUBLIC`));
  return {
    body: `PERFORM pg_sleep(${seconds}); PERFORM setval('${sequence}', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);`,
    async endedAt() {
      const [row] = await db.systemQuery<{ at: string; called: boolean }>(sql.raw(`SELECT last_value::text AS at, is_called AS called FROM ${sequence}`));
      return row.called ? Number(row.at) : null;
    },
  };
}
