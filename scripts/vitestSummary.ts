// A Vitest reporter for `npm test`'s summary (scripts/test.ts): writes, to the file named by
// VITEST_SUMMARY_FILE, the counts of tests, the files that failed without a failing test (they did
// not load, or an error escaped their tests), each file's time (environment, imports, hooks and
// tests) and every skipped test with the reason it gave (`ctx.skip(condition, reason)`).
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import type { StepSummary } from './testSummary.ts';

export default class VitestSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    const summary: StepSummary = { passed: 0, failed: 0, skipped: 0, brokenFiles: [], unhandledErrors: unhandledErrors.length, files: [], skippedTests: [] };
    for (const module of modules) {
      const file = module.relativeModuleId;
      const { environmentSetupDuration, prepareDuration, collectDuration, setupDuration, duration } = module.diagnostic();
      summary.files.push({ file, ms: environmentSetupDuration + prepareDuration + collectDuration + setupDuration + duration });
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') summary.passed++;
        else if (result.state === 'failed') {
          summary.failed++;
          failedTests++;
        } else if (result.state === 'skipped') {
          summary.skipped++;
          summary.skippedTests.push({ file, name: test.fullName, reason: result.note ?? (test.options.mode === 'todo' ? 'to do' : undefined) });
        }
      }
      if (!module.ok() && failedTests === 0) summary.brokenFiles.push(file);
    }
    writeFileSync(process.env.VITEST_SUMMARY_FILE ?? 'vitest-summary.json', JSON.stringify(summary));
  }
}
