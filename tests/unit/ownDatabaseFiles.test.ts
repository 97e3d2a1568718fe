// The PostgreSQL leg leaves out the API files that choose their own database: each must really
// not reach the run's (the harness's copy of the demo database, TEST_DATABASE_URL), or the leg
// would silently stop testing it on PostgreSQL.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_DATABASE_FILES } from '../api/ownDatabaseFiles.ts';

const root = join(import.meta.dirname, '..', '..');

describe('API files left out of the PostgreSQL leg', () => {
  it.each(OWN_DATABASE_FILES)('%s uses no database of the run', (file) => {
    expect(existsSync(join(root, file)), `${file} exists`).toBe(true);
    const source = readFileSync(join(root, file), 'utf8');
    expect(source).not.toMatch(/from '\.\/harness\.ts'|databaseTemplate|TEST_DATABASE_URL|inject\(/);
  });
});
