// GET /map-clusters (docs/api.md "The map of a large region"): the clusters and devices of a viewport.
import type { FastifyInstance } from 'fastify';
import { mapClustersAnswerSchema, mapClustersQuerySchema, type MapClustersQuery } from '../../src/schemas/mapClusters.ts';
import { isRuleCondition, ruleConditionsSchema, type RuleCondition } from '../../src/shared/map/ruleConditions.ts';
import { badRequest } from '../errors.ts';
import { validated } from '../schemaValidator.ts';
import type { MapIndexService } from '../services/mapIndexService.ts';
import { callerFrom } from './authenticate.ts';
import { parseClientJson } from './clientJson.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export const RULES_INVALID = 'rules must be a JSON list of colour rules: { operator, value, to } each, numbers to order by, between in order';
export const RULES_OR_GROUPS = 'Ask for rules or for groups: a map colours by one of them';

/** The `rules` parameter's conditions, or 400 VALIDATION naming `rules`. */
function ruleConditionsOf(text: string): RuleCondition[] {
  let parsed: unknown;
  try {
    parsed = parseClientJson(text);
  } catch {
    throw badRequest('VALIDATION', RULES_INVALID, 'rules');
  }
  // the schema checks the shape (an array of closed objects), isRuleCondition what it cannot: numbers to order by, a range in order
  const rules = validated<unknown[]>(ruleConditionsSchema, parsed, 'rules');
  if (!rules.every(isRuleCondition)) throw badRequest('VALIDATION', RULES_INVALID, 'rules');
  return rules;
}

export function mapClusterRoutes(app: FastifyInstance, mapIndex: MapIndexService) {
  app.get<{ Querystring: MapClustersQuery }>('/map-clusters', {
    schema: {
      tags: ['entities'],
      summary: 'What the map shows of a viewport: clusters of the region\'s devices (with how many are in alarm, not connected, under maintenance, and per colour rule or chosen group when asked) and the devices alone in their cell',
      security: [{ bearer: [] }],
      querystring: bodySchema(mapClustersQuerySchema),
      response: { ...errorResponses, 200: mapClustersAnswerSchema },
    },
  }, (request) => {
    const { rules, groups, ...query } = request.query;
    if (rules !== undefined && groups !== undefined) throw badRequest('VALIDATION', RULES_OR_GROUPS, 'groups');
    const counted = rules !== undefined ? { rules: ruleConditionsOf(rules) }
      : groups !== undefined ? { groups: [...new Set(groups.split(',').map(Number))] } : undefined;
    return mapIndex.view(callerFrom(request), query, counted);
  });
}
