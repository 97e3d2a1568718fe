// POST /test-query-scheduler (SPEC §7, docs/api.md "Testing a complex query"): a scheduler's
// complex query run once with the scheduler's entities and time slot, before it is saved. The
// answer says it passed and what the query answered; a failed test answers 400 with the reason
// in SPEC §8's words.
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';
import { SCHEDULER_TIME_SLOTS } from './enums.ts';
import { entityIds, entityTypeIds } from './fields.ts';

/** The largest body: a query of 10 kB and the scheduler's ids fit in it several times over. */
export const MAX_QUERY_TEST_BODY_BYTES = 64 * 1024;

export const schedulerQueryTestBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    // beyond the query's own limit (10 kB), so that the test answers that limit in its own words
    query: { type: 'string', minLength: 1, maxLength: 20_000, pattern: NO_NUL },
    entity_ids: entityIds,
    entity_type_ids: entityTypeIds,
    time_slot: { type: 'string', enum: SCHEDULER_TIME_SLOTS },
  },
} as const;
export type SchedulerQueryTestBody = FromSchema<typeof schedulerQueryTestBodySchema>;

export const QUERY_TEST_PASSED = 'Test of query passed';
/** SPEC §8's words for a failed test. */
export const queryTestFailedMessage = (reason: string) => `Test of query ended with error = ${reason}`;

export const schedulerQueryTestAnswerSchema = {
  type: 'object',
  required: ['status', 'message', 'result'],
  properties: {
    status: { type: 'string', enum: ['passed'] },
    message: { type: 'string' },
    /** The aggregation's value: a number or null, percentiles `{ "50.0": n }`, or a date_histogram's buckets. */
    result: {},
  },
} as const;
export interface SchedulerQueryTestAnswer { status: 'passed'; message: string; result: unknown }

