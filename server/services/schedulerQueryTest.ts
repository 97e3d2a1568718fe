// POST /test-query-scheduler (SPEC §7, §8; docs/api.md "Testing a complex query"): runs a
// scheduler's complex query once, as the scheduler would (its entities, its time slot, the
// tenant's time zone), and answers whether it passed. Only for those who may write schedulers and
// hold `scheduler.complex_query` by name. It answers within TEST_TIME_LIMIT_MS: a query still
// running then is a failed test (the database stops it at its own limit); nothing is written.
import { COMPLEX_QUERY_PERMISSION } from '../../src/schemas/scheduler.ts';
import { permissionHeldByName } from '../../src/schemas/modules.ts';
import { QUERY_TEST_PASSED, queryTestFailedMessage, type SchedulerQueryTestAnswer, type SchedulerQueryTestBody } from '../../src/schemas/schedulerQueryTest.ts';
import type { Database } from '../db/database.ts';
import { tenantTimeZone } from '../db/directoryQueries.ts';
import { ComplexQueryRefused, runComplexQuery } from './complexQuery/complexQuery.ts';
import { ApiError, forbidden } from '../errors.ts';
import { schemaOf } from '../resources/registry.ts';
import { authorize } from '../resources/resourceAccess.ts';
import { timeZoneOrUtc } from '../../src/shared/lighting/localTime.ts';
import type { Caller } from '../auth/caller.ts';
import type { ReadBudget } from './readBudget.ts';

/** The longest a test keeps its caller waiting. */
export const TEST_TIME_LIMIT_MS = 5_000;

const QUERY_TEST_FAILED = 'SCHEDULER_TEST_FAILED';

/**
 * A failed test: 400 in the house shape, field `query`, the reason in `params.reason` (and the
 * offending part of the query in `params.path`), with SPEC §7's `status` and `message` beside `errors`.
 */
class QueryTestFailed extends ApiError {
  constructor(refusal: ComplexQueryRefused) {
    super(400, QUERY_TEST_FAILED, queryTestFailedMessage(refusal.message), 'query', { reason: refusal.message, ...refusal.path ? { path: refusal.path } : {} });
  }
  get body() {
    return { status: 'failed', message: this.message, ...super.body };
  }
}

/** Whoever may write a scheduler (its model's rule) and holds `scheduler.complex_query` by name. */
export function authorizeQueryTest(caller: Caller): void {
  authorize(caller, schemaOf('scheduler'), 'update');
  if (!permissionHeldByName(caller.permissions, COMPLEX_QUERY_PERMISSION)) throw forbidden(COMPLEX_QUERY_PERMISSION);
}

/** `work`'s outcome, or a refusal once `limitMs` has passed (the work is left to finish or fail alone). */
function withinTime<T>(work: Promise<T>, limitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ComplexQueryRefused(`the query took too long: no answer within ${limitMs / 1000} s`)), limitMs);
  });
  work.catch(() => {}); // an answer too late is nobody's
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export interface QueryTestOptions {
  /** The test is one of the caller's budgeted expensive reads. */
  budget: ReadBudget;
  timeLimitMs?: number;
  clock?: () => number;
}

export function schedulerQueryTest(db: Database, { budget, timeLimitMs = TEST_TIME_LIMIT_MS, clock = Date.now }: QueryTestOptions) {
  return {
    async test(caller: Caller, body: SchedulerQueryTestBody): Promise<SchedulerQueryTestAnswer> {
      authorizeQueryTest(caller);
      const timeZone = timeZoneOrUtc(await db.tenantTx(caller.tenantId, tenantTimeZone));
      const run = budget.run(caller, () => runComplexQuery(db, {
        tenantId: caller.tenantId, timeZone, query: body.query, now: clock(),
        entityIds: body.entity_ids, entityTypeIds: body.entity_type_ids, timeSlot: body.time_slot,
      }));
      try {
        return { status: 'passed', message: QUERY_TEST_PASSED, result: await withinTime(run, timeLimitMs) };
      } catch (error) {
        if (error instanceof ComplexQueryRefused) throw new QueryTestFailed(error);
        throw error;
      }
    },
  };
}
export type SchedulerQueryTest = ReturnType<typeof schedulerQueryTest>;
