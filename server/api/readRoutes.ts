// The shell's REST reads (docs/api.md "Reads").
import type { FastifyInstance, FastifyReply } from 'fastify';
import { entityListQuerySchema, idParamSchema, type EntityListQuery, type IdParam } from '../../src/schemas/entityQuery.ts';
import { idList, INT4_MAX } from '../../src/schemas/bounds.ts';
import { MAP_FEATURES_PAGE, mapFeaturesAnswerSchema, mapFeaturesQuerySchema, type MapFeaturesQuery } from '../../src/schemas/mapFeatures.ts';
import { mapConfigAnswerSchema, type BaseMap, type MapConfig } from '../../src/schemas/mapConfig.ts';
import { GROUP_MEMBERS_PAGE, groupMembersAnswerSchema, groupMembersQuerySchema, type GroupMembersQuery } from '../../src/schemas/groupMembers.ts';
import { MODULES } from '../../src/schemas/modules.ts';
import { MAX_TELEMETRY_KEYS, telemetryKeysAnswerSchema, telemetryKeysQuerySchema, type TelemetryKeysQuery } from '../../src/schemas/telemetryKeys.ts';
import type { EntityFilters } from '../db/entityQueries.ts';
import { badRequest } from '../errors.ts';
import type { ReadService } from '../services/readService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';

const outOfRange = (field: string) => badRequest('VALIDATION', `${field} must hold ids from 1 to ${INT4_MAX}`, field);

export function entityFilters(query: Omit<EntityListQuery, 'page' | 'per_page'>): EntityFilters {
  const { ids, types, gateway, ...rest } = query;
  const idFilter = ids === undefined ? undefined : idList(ids);
  if (ids !== undefined && !idFilter) throw outOfRange('ids');
  const typeFilter = types === undefined ? undefined : idList(types);
  if (types !== undefined && !typeFilter) throw outOfRange('types');
  let gatewayFilter: EntityFilters['gateway'];
  if (gateway === 'true' || gateway === 'false') gatewayFilter = gateway === 'true';
  else if (gateway !== undefined) [gatewayFilter] = idList(gateway) ?? [];
  if (gateway !== undefined && gatewayFilter === undefined) throw outOfRange('gateway');
  return { ...rest, ids: idFilter, types: typeFilter, gateway: gatewayFilter };
}

/** Sends JSON text the database built, as it is. */
const json = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

export function readRoutes(app: FastifyInstance, reads: ReadService, baseMap: BaseMap) {
  const security = [{ bearer: [] }];
  const schema = (tag: string, summary: string, extra: object = {}) => ({ tags: [tag], summary, security, response: errorResponses, ...extra });

  app.get('/tenant', { schema: schema('tenant', 'The caller\'s tenant') }, async (request, reply) => json(reply, await reads.tenantJson(callerFrom(request))));
  app.get('/user-me', { schema: schema('users', 'The signed-in user') }, async (request, reply) => json(reply, await reads.meJson(callerFrom(request))));
  app.get<{ Querystring: { module?: string } }>('/entity-type-list', {
    schema: schema('entities', 'Entity types', { querystring: { type: 'object', additionalProperties: false, properties: { module: { type: 'string', enum: MODULES } } } }),
  }, (request) => reads.entityTypes(callerFrom(request)));
  app.get<{ Querystring: EntityListQuery }>('/entity-list', {
    schema: schema('entities', 'Entities, filtered; with per_page one page of them and X-Total-Count', { querystring: bodySchema(entityListQuerySchema) }),
  }, async (request, reply) => {
    const { page = 1, per_page: perPage, ...query } = request.query;
    if (perPage === undefined) return json(reply, await reads.entitiesJson(callerFrom(request), entityFilters(query)));
    const { total, rows } = await reads.entityPage(callerFrom(request), entityFilters(query), { page, perPage });
    return reply.header('x-total-count', total).send(rows);
  });
  app.get<{ Params: IdParam }>('/entity/:id', {
    schema: schema('entities', 'One entity with its children ids', { params: bodySchema(idParamSchema) }),
  }, (request) => reads.entity(callerFrom(request), request.params.id));
  app.get<{ Querystring: MapFeaturesQuery }>('/map-features', {
    schema: schema('entities', 'What the map draws: a page of [id, entity_type_id, level, parent_id, position, colour value, colour] rows', {
      querystring: bodySchema(mapFeaturesQuerySchema), response: { ...errorResponses, 200: mapFeaturesAnswerSchema },
    }),
  }, async (request, reply) => {
    const { region, level, attribute, shape, after = 0, limit = MAP_FEATURES_PAGE } = request.query;
    return json(reply, await reads.mapFeaturesJson(callerFrom(request), { region, level, attribute, shape, after, limit }));
  });
  app.get('/map-config', {
    schema: schema('map', 'The base map the web app draws (MAP_STYLE); its key, if any, is a browser key', { response: { ...errorResponses, 200: mapConfigAnswerSchema } }),
  }, async (): Promise<MapConfig> => ({ base_map: baseMap }));
  app.get<{ Querystring: TelemetryKeysQuery }>('/telemetry-keys', {
    schema: schema('telemetry', 'The keys the given entities or entity types report (all of the tenant\'s when neither is given)', {
      querystring: bodySchema(telemetryKeysQuerySchema), response: { ...errorResponses, 200: telemetryKeysAnswerSchema },
    }),
  }, (request) => {
    const { ids, types } = request.query;
    const idFilter = ids === undefined ? undefined : idList(ids);
    const typeFilter = types === undefined ? undefined : idList(types);
    if ((ids !== undefined && !idFilter) || (types !== undefined && !typeFilter)) throw outOfRange(idFilter ? 'types' : 'ids');
    return reads.telemetryKeys(callerFrom(request), { ids: idFilter, types: typeFilter, limit: MAX_TELEMETRY_KEYS });
  });
  app.get('/group-tree', { schema: schema('groups', 'Groups as a tree') }, (request) => reads.groupTree(callerFrom(request)));
  app.get('/group-list', { schema: schema('groups', 'Groups') }, (request) => reads.groupList(callerFrom(request)));
  app.get<{ Querystring: GroupMembersQuery }>('/group-members', {
    schema: schema('groups', 'A page of the ids of a group\'s entities (the map colours them)', {
      querystring: bodySchema(groupMembersQuerySchema), response: { ...errorResponses, 200: groupMembersAnswerSchema },
    }),
  }, async (request, reply) => {
    const { group, region, shape, after = 0, limit = GROUP_MEMBERS_PAGE } = request.query;
    return json(reply, await reads.groupMembersJson(callerFrom(request), { group, region, shape, after, limit }));
  });
}
