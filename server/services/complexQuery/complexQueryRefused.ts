// A complex query the platform will not run (docs/api.md "Complex queries"): why, in words its
// author can act on, naming the offending part of the query by its path in the query's JSON
// (`query.bool.must.0.script`). The scheduler engine records it as the run's failure; the test
// door answers it as a failed test.
export class ComplexQueryRefused extends Error {
  /** Where in the query's JSON the problem is (dot-separated), when it is in one place. */
  readonly path: string | undefined;
  constructor(reason: string, path?: string) {
    super(path ? `${path} ${reason}` : reason);
    this.name = 'ComplexQueryRefused';
    this.path = path;
  }
}
