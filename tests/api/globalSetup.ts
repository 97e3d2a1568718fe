// The API tests' global setup: the demo database, migrated and seeded once for the whole run, that
// every test app copies (tests/support/databaseTemplate.ts) — on the PostgreSQL server in
// TEST_DATABASE_URL when it is set, else the embedded database.
import type { TestProject } from 'vitest/node';
import { buildDatabaseTemplate } from '../support/databaseTemplate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The template database's name (PostgreSQL) or the embedded dump's path. */
    databaseTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const template = await buildDatabaseTemplate(process.env.TEST_DATABASE_URL);
  project.provide('databaseTemplate', template.reference);
  return () => template.remove();
}
