// The committed migrations are those of the schemas: a schema changed without `npm run db:generate`
// (a field, a bound, an enumeration value, a filter) fails here, naming the statements the
// missing migration would hold, before any server meets a table that lacks them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';

const meta = join(import.meta.dirname, '..', '..', '..', 'server', 'db', 'migrations', 'meta');

describe('the migrations', () => {
  it('hold every change of the models\' tables (npm run db:generate writes none)', async () => {
    const newest = readdirSync(meta).filter((name) => name.endsWith('_snapshot.json')).sort().at(-1)!;
    const committed = JSON.parse(readFileSync(join(meta, newest), 'utf8'));
    expect(await generateMigration(committed, generateDrizzleJson(schema))).toEqual([]);
  }, 60_000);
});
