// The order test files start in: vitest's own (files that failed last time first, then the longest
// last time, then the largest), except that the files known to take minutes start first within
// their project. Two files run at a time; a two-minute file started last is a two-minute tail with
// one worker idle. Vitest's memory of durations cannot be trusted for them: a fresh clone has none,
// and the API legs share a project, so the embedded leg's run (where the cluster scenario is
// skipped in 5 ms) would put it last on PostgreSQL.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first: a fixed scenario of two minutes, instances killed and waited for, full disks. */
export const LONG_FILES = [
  'tests/api/cluster.test.ts',
  'tests/api/killedInstance.test.ts',
  'tests/api/diskFull.test.ts',
  'tests/api/shutdown.test.ts',
  'tests/api/instances.test.ts',
  'tests/api/embeddedDatabase.test.ts',
];

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const rank = (spec: TestSpecification) => {
      const long = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return long < 0 ? LONG_FILES.length : long;
    };
    const order = new Map(sorted.map((spec, index) => [spec, index]));
    return [...sorted].sort((a, b) =>
      projects.indexOf(a.project.name) - projects.indexOf(b.project.name) || rank(a) - rank(b) || order.get(a)! - order.get(b)!);
  }
}
