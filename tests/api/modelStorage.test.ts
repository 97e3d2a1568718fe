// A model whose field has no column stops the server at start-up with one sentence naming the
// model, the field and the command that fixes it — not a 500 at the field's first request.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { checkModelStorage } from '../../server/resources/modelStorage.ts';
import { ModelStorageError } from '../../server/resources/modelStorageError.ts';
import { registerModel } from '../../server/resources/registry.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../src/schemas/models.ts';
import { gadgetSchema, gadgets, gadgetsDdl, gadgetTables, generatedMigration } from '../support/gadgetModel.ts';
import { freshPostgresDatabase, JWT_SECRET, usingPostgres } from './harness.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'terrasight-storage-'));
const dataDir = join(scratch, 'data');
let db: Database;
let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;

// The gadget model, and the same with one more field in its schema (its table derived again).
// (both removed after the file: the files that run next in this worker build apps without them)
const unregisterGadget = registerModel(gadgetSchema, { table: gadgets });
const notedSchema = {
  ...gadgetSchema, $id: 'noted_gadget', properties: { ...gadgetSchema.properties, note: { type: 'string', maxLength: 200 } },
} as unknown as ModelSchema;
const notedGadgets = gadgetTables(notedSchema).table;
const unregisterNoted = registerModel(notedSchema, { table: notedGadgets });

beforeAll(async () => {
  postgres = usingPostgres() ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined;
  db = await openDatabase({ databaseUrl: postgres?.url, dataDir });
});
afterAll(async () => {
  await db?.close();
  await postgres?.drop();
  rmSync(scratch, { recursive: true, force: true });
  unregisterGadget();
  unregisterNoted();
});

const refusal = (names: string[]) => checkModelStorage(db, names).then(() => undefined, (error: unknown) => error);

describe('the start-up check of every model against its tables', () => {
  it('passes for the built-in models on a migrated database', async () => {
    await expect(checkModelStorage(db, Object.keys(MODEL_SCHEMAS))).resolves.toBeUndefined();
  });

  it('names a table the database lacks (its migration was not generated)', async () => {
    const error = await refusal(['gadget']);
    expect(error).toBeInstanceOf(ModelStorageError);
    expect((error as Error).message).toBe(
      'The database has no table gadgets for the model gadget: a migration is missing; run `npm run db:generate` and start again.');
  });

  it('names a field whose column the database lacks', async () => {
    await db.systemQuery(await gadgetsDdl());
    await expect(checkModelStorage(db, ['gadget'])).resolves.toBeUndefined();
    await db.systemQuery(sql`ALTER TABLE gadgets DROP COLUMN notes`);
    expect((await refusal(['gadget']) as Error).message).toBe(
      'The database table gadgets has no column notes for the field notes of the model gadget: a migration is missing; run `npm run db:generate` and start again.');
  });

  it('names a field added to a schema alone, until the generated migration adds its column', async () => {
    await db.systemQuery(sql`ALTER TABLE gadgets ADD COLUMN notes text`);
    expect((await refusal(['noted_gadget']) as Error).message).toBe(
      'The database table gadgets has no column note for the field note of the model noted_gadget: a migration is missing; run `npm run db:generate` and start again.');
    const migration = await generatedMigration({ gadgets }, { gadgets: notedGadgets });
    expect(migration).toMatch(/ALTER TABLE "gadgets" ADD COLUMN "note" text/);
    expect(migration).toMatch(/CHECK \(char_length\("note"\) <= 200\)/);
    await db.systemQuery(sql.raw(migration));
    await expect(checkModelStorage(db, ['noted_gadget'])).resolves.toBeUndefined();
  });

  it('stops the server with that sentence, exit code 1', { timeout: 120_000 }, async () => {
    await db.systemQuery(sql`ALTER TABLE watchers DROP COLUMN interval`);
    await db.close();
    const where = postgres ? { DATABASE_URL: postgres.url, JWT_SECRET } : { DATA_DIR: dataDir };
    const result = spawnSync(process.execPath, [join(root, 'server', 'main.ts')], {
      cwd: root, encoding: 'utf8', timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', MQTT_PORT: '0', SEED: 'none', SIMULATE: 'off', ...where },
    });
    db = await openDatabase({ databaseUrl: postgres?.url, dataDir }); // for afterAll
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('Terrasight cannot start: The database table watchers has no column interval for the field interval of the model watcher: '
      + 'a migration is missing; run `npm run db:generate` and start again.');
  });
});
