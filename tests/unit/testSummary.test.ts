// What `npm test` prints after its table: Playwright's JSON report read into counts, per-file
// times (every attempt of a test counted) and skipped tests with their reasons; the slowest files
// of all steps together.
import { describe, expect, it } from 'vitest';
import { playwrightSummary, slowestFiles, type PlaywrightReport } from '../../scripts/testSummary.ts';

const report: PlaywrightReport = {
  stats: { expected: 2, unexpected: 1, flaky: 1, skipped: 1 },
  errors: [],
  suites: [{
    title: 'login.spec.ts', file: 'login.spec.ts',
    specs: [
      { title: 'signs in', file: 'login.spec.ts', tests: [{ status: 'expected', results: [{ duration: 4_000, status: 'passed' }] }] },
      // failed once, passed on its retry: both attempts took time
      { title: 'signs out', file: 'login.spec.ts', tests: [{ status: 'flaky', results: [{ duration: 30_000, status: 'timedOut' }, { duration: 6_000, status: 'passed' }] }] },
    ],
    suites: [{
      title: 'in Slovak', file: 'login.spec.ts',
      specs: [{
        title: 'says Prihlásiť', file: 'login.spec.ts',
        tests: [{ status: 'skipped', annotations: [{ type: 'skip', description: 'needs the Slovak fonts' }], results: [{ duration: 0, status: 'skipped' }] }],
      }],
    }],
  }, {
    title: 'map.spec.ts', file: 'map.spec.ts',
    specs: [
      { title: 'pans', file: 'map.spec.ts', tests: [{ status: 'expected', results: [{ duration: 12_000, status: 'passed' }] }] },
      { title: 'zooms', file: 'map.spec.ts', tests: [{ status: 'unexpected', results: [{ duration: 9_000, status: 'failed' }] }] },
    ],
  }],
};

describe('the summary of a Playwright report', () => {
  const summary = playwrightSummary(report, 'tests/e2e');

  it('counts a test that passed on its retry as passed, and as flaky', () => {
    expect(summary).toMatchObject({ passed: 3, failed: 1, skipped: 1, flaky: 1, unhandledErrors: 0 });
  });

  it("gives each file the time of all its tests' attempts", () => {
    expect(summary.files).toEqual([
      { file: 'tests/e2e/login.spec.ts', ms: 40_000 },
      { file: 'tests/e2e/map.spec.ts', ms: 21_000 },
    ]);
  });

  it('names a skipped test by its suites and gives its reason', () => {
    expect(summary.skippedTests).toEqual([{ file: 'tests/e2e/login.spec.ts', name: 'in Slovak › says Prihlásiť', reason: 'needs the Slovak fonts' }]);
  });
});

describe('the slowest files', () => {
  it('are those of all steps together, the slowest first, at most the count asked', () => {
    const steps = [
      { step: 'unit', files: [{ file: 'a.test.ts', ms: 500 }, { file: 'b.test.ts', ms: 9_000 }] },
      { step: 'e2e', files: [{ file: 'c.spec.ts', ms: 40_000 }] },
      { step: 'api', files: [{ file: 'd.test.ts', ms: 12_000 }, { file: 'e.test.ts', ms: 100 }] },
    ];
    expect(slowestFiles(steps, 3)).toEqual([
      { step: 'e2e', file: 'c.spec.ts', ms: 40_000 },
      { step: 'api', file: 'd.test.ts', ms: 12_000 },
      { step: 'unit', file: 'b.test.ts', ms: 9_000 },
    ]);
    expect(slowestFiles(steps)).toHaveLength(5);
  });
});
