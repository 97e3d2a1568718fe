// Test projects (run one with `vitest run --project <name>`):
//   unit  tests/unit/**/*.test.ts(x): jsdom for tests/unit/web/**, Node for the rest. Declared in
//         tests/unit/vitest.config.ts, whose two projects are "unit (node)" and "unit (web)";
//         `--project unit` selects both.
//   api   tests/api/**/*.test.ts: the real server on a real database (embedded PGlite, or a fresh
//         database on the PostgreSQL server in TEST_DATABASE_URL). The global setup migrates and
//         seeds the demo database once; each test app starts on its own copy of it
//         (tests/support/databaseTemplate.ts). Two files run at a time (much of a file's time is
//         waiting: on timers, on a child server, on the database), which on 2 cores takes a third
//         off the step.
//         The files of a worker share one module cache (`isolate: false`): the server's modules
//         are imported once per worker, not once per file (a fifth of the step). A file that
//         changes module state (a registered model) undoes it in its afterAll.
//         On PostgreSQL, the files that choose their own database (OWN_DATABASE_FILES) stay out.
//         The files known to take minutes start first (tests/support/longFilesFirst.ts).
import { configDefaults, defineConfig } from 'vitest/config';
import { OWN_DATABASE_FILES } from './tests/api/ownDatabaseFiles.ts';
import { LongFilesFirst } from './tests/support/longFilesFirst.ts';

export default defineConfig({
  test: {
    sequence: { sequencer: LongFilesFirst },
    projects: [
      'tests/unit/vitest.config.ts',
      {
        // Node resolves `graphql` to its CommonJS build, the one mercurius requires; vite would pick
        // the ES module build, a second copy whose schema and Location classes are not mercurius'.
        resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? OWN_DATABASE_FILES : [])],
          globalSetup: ['tests/api/globalSetup.ts'],
          maxWorkers: 2,
          isolate: false,
          // Generous: a limit only bounds a failure, and a busy machine (a CPU hog beside the run)
          // takes two to three times as long as a quiet one.
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
