// The API test files whose tests choose their database themselves (the embedded one on a data
// directory of their own, a throw-away PostgreSQL server) rather than the run's: the PostgreSQL leg
// of `npm test` leaves them out (vitest.config.ts), as it would only repeat them.
// tests/unit/ownDatabaseFiles.test.ts checks that none of them reaches the run's database.
export const OWN_DATABASE_FILES = [
  'tests/api/diskFull.test.ts',
  'tests/api/embeddedDatabase.test.ts',
  'tests/api/shutdown.test.ts',
  'tests/api/startup.test.ts',
];
