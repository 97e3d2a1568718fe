// The "unit" test project (see the root vitest.config.ts): a container for two projects that
// differ only in their environment, so `vitest run --project unit` runs both.
//
// The files of a worker share one module cache (`isolate: false`): importing antd, refine and the
// app once per worker instead of once per file takes the step from about 230 s to 30 s on two
// cores. So every file sets up the state it relies on (the i18n language, stubs it removes, its
// own copy of a module it mocks: `vi.resetModules()` before importing it), whatever ran before it
// (`vitest run --project unit --sequence.shuffle.files` tries other orders).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const repoRoot = here('../../');

// The web app's own setup file wins; the minimal one here covers what antd and refine need.
const webSetup = existsSync(here('./web/setup.ts')) ? here('./web/setup.ts') : here('./setup-web.ts');

export default defineConfig({
  test: {
    name: 'unit',
    projects: [
      {
        test: {
          name: 'node',
          root: repoRoot,
          environment: 'node',
          isolate: false,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          exclude: ['tests/unit/web/**', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'web',
          root: repoRoot,
          environment: 'jsdom',
          isolate: false,
          include: ['tests/unit/web/**/*.test.{ts,tsx}'],
          setupFiles: [webSetup],
          // refine's packages must go through Vite with the app, or the test gets a second
          // react-router instance ("useLocation() may be used only in the context of a <Router>").
          server: { deps: { inline: [/@refinedev\//] } },
        },
      },
    ],
  },
});
