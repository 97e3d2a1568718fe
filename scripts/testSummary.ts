// What `npm test` (scripts/test.ts) learns from a test runner's report: counts, file times and
// skipped tests with their reasons. Vitest writes it (scripts/vitestSummary.ts); Playwright's JSON
// report is read into the same shape here.

export interface StepSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Passed only on a retry (Playwright). */
  flaky?: number;
  /** Files that failed without a failing test: they did not load, or an error escaped their tests. */
  brokenFiles: string[];
  /** Errors outside any test. */
  unhandledErrors: number;
  /** Each test file's time (ms): its environment, imports, hooks and tests. */
  files: { file: string; ms: number }[];
  skippedTests: { file: string; name: string; reason?: string }[];
}

interface PlaywrightResult { duration: number; status: string }
interface PlaywrightTest { status: string; annotations?: { type: string; description?: string }[]; results: PlaywrightResult[] }
interface PlaywrightSpec { title: string; file: string; tests: PlaywrightTest[] }
interface PlaywrightSuite { title: string; file: string; specs?: PlaywrightSpec[]; suites?: PlaywrightSuite[] }
export interface PlaywrightReport {
  suites?: PlaywrightSuite[];
  errors?: { message?: string }[];
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
}

/** The summary of a Playwright JSON report; a test's time is that of all its attempts. */
export function playwrightSummary(report: PlaywrightReport, testDir: string): StepSummary {
  const stats = report.stats ?? {};
  const times = new Map<string, number>();
  const skippedTests: StepSummary['skippedTests'] = [];
  const visit = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      const file = `${testDir}/${spec.file}`;
      for (const test of spec.tests) {
        times.set(file, (times.get(file) ?? 0) + test.results.reduce((sum, result) => sum + result.duration, 0));
        if (test.status !== 'skipped') continue;
        const reason = test.annotations?.find((annotation) => annotation.type === 'skip')?.description;
        skippedTests.push({ file, name: [...titles, spec.title].join(' › '), reason });
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: stats.unexpected ?? 0,
    skipped: stats.skipped ?? 0,
    flaky: stats.flaky ?? 0,
    brokenFiles: [],
    unhandledErrors: report.errors?.length ?? 0,
    files: [...times].map(([file, ms]) => ({ file, ms })),
    skippedTests,
  };
}

/** The `count` slowest files of all steps, the slowest first. */
export function slowestFiles(steps: { step: string; files: StepSummary['files'] }[], count = 10): { step: string; file: string; ms: number }[] {
  return steps.flatMap(({ step, files }) => files.map((file) => ({ step, ...file }))).sort((a, b) => b.ms - a.ms).slice(0, count);
}
