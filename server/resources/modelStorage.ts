// Start-up check: every registered model's fields have their columns, in the Drizzle tables and in
// the database, so a field added to a schema alone stops the server with one sentence instead of
// answering 500 at its first request.
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/database.ts';
import { databaseColumns } from '../db/tableColumns.ts';
import { columnNotInDatabase, tableNotInDatabase } from './modelStorageError.ts';
import { modelNames } from './registry.ts';
import { modelOf } from './resourceModel.ts';

/** Throws a ModelStorageError naming the first model, field and column that has no storage. */
export async function checkModelStorage(db: Database, names = modelNames()): Promise<void> {
  const present = await databaseColumns(db);
  for (const name of names) {
    const model = modelOf(name); // throws when a field has no column in its Drizzle table
    // Each column the model uses, with the field it holds (where it holds one).
    const fieldOf = new Map<PgColumn, string>();
    for (const [field, column] of Object.entries(model.columns)) fieldOf.set(column, field);
    for (const [field, properties] of Object.entries(model.flattened)) {
      for (const [property, column] of Object.entries(properties)) fieldOf.set(column, `${field}.${property}`);
    }
    const tables: [PgTable, string?][] = [[model.table]];
    for (const [field, link] of Object.entries(model.binding.links ?? {})) tables.push([link.table, field]);
    for (const [table, linkField] of tables) {
      const tableName = getTableName(table);
      const columns = present.get(tableName);
      if (!columns) throw tableNotInDatabase(name, tableName);
      for (const column of Object.values(getTableColumns(table)) as PgColumn[]) {
        if (!columns.has(column.name)) throw columnNotInDatabase(name, tableName, column.name, linkField ?? fieldOf.get(column));
      }
    }
  }
}
