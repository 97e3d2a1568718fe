// A model whose fields the tables cannot hold: found at start-up (server/resources/modelStorage.ts)
// and said in one sentence naming the model, the field and the command that fixes it.
export class ModelStorageError extends Error {}

const GENERATE = 'run `npm run db:generate` and start again';

/** The field has no column in the Drizzle table: its storage (server/db/schema.ts) leaves it out. */
export const fieldWithoutColumn = (model: string, field: string, table: string) =>
  new ModelStorageError(`The model ${model} has a field ${field} without a column in the table ${table}: its storage in server/db/schema.ts leaves it out (as computed or linked); keep it there, ${GENERATE}.`);

/** The Drizzle table is not in the database: its migration was not generated. */
export const tableNotInDatabase = (model: string, table: string) =>
  new ModelStorageError(`The database has no table ${table} for the model ${model}: a migration is missing; ${GENERATE}.`);

/** The Drizzle table has a column the database table lacks: its migration was not generated. */
export const columnNotInDatabase = (model: string, table: string, column: string, field?: string) =>
  new ModelStorageError(`The database table ${table} has no column ${column}${field ? ` for the field ${field}` : ''} of the model ${model}: a migration is missing; ${GENERATE}.`);
