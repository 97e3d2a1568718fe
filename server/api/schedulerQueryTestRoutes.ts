// POST /test-query-scheduler (SPEC §7, docs/api.md "Testing a complex query"): a scheduler's
// complex query run once. 200 `{ status: "passed", message, result }`; a failed test 400
// `SCHEDULER_TEST_FAILED` 'Test of query ended with error = …' (SPEC §8) with `status: "failed"`.
// Who may not test gets 403 before the body is read.
import type { FastifyInstance } from 'fastify';
import {
  MAX_QUERY_TEST_BODY_BYTES, schedulerQueryTestAnswerSchema, schedulerQueryTestBodySchema, type SchedulerQueryTestBody,
} from '../../src/schemas/schedulerQueryTest.ts';
import { authorizeQueryTest, type SchedulerQueryTest } from '../services/schedulerQueryTest.ts';
import { callerFrom } from './authenticate.ts';
import { errorBody, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

/** The error body with SPEC §7's status and message of a failed test beside it. */
const failedTestBody = {
  ...errorBody,
  properties: { status: { type: 'string', enum: ['failed'] }, message: { type: 'string' }, ...errorBody.properties },
} as const;

export function schedulerQueryTestRoutes(app: FastifyInstance, queryTest: SchedulerQueryTest) {
  app.post<{ Body: SchedulerQueryTestBody }>('/test-query-scheduler', {
    onRequest: checkAccessFirst(authorizeQueryTest),
    // a preview reads only: served during read-only maintenance
    config: { duringReadOnly: true },
    bodyLimit: MAX_QUERY_TEST_BODY_BYTES,
    schema: {
      tags: ['scheduler'], summary: 'Runs a scheduler\'s complex query once (test before saving)', security: [{ bearer: [] }],
      body: schedulerQueryTestBodySchema, response: { ...errorResponses, 200: schedulerQueryTestAnswerSchema, 400: failedTestBody },
    },
  }, (request) => queryTest.test(callerFrom(request), request.body));
}
