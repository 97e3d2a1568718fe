// GET /map-clusters (docs/api.md "The map of a large region"): the clusters and devices of a viewport.
import type { FastifyInstance } from 'fastify';
import { mapClustersAnswerSchema, mapClustersQuerySchema, type MapClustersQuery } from '../../src/schemas/mapClusters.ts';
import type { MapIndexService } from '../services/mapIndexService.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';

export function mapClusterRoutes(app: FastifyInstance, mapIndex: MapIndexService) {
  app.get<{ Querystring: MapClustersQuery }>('/map-clusters', {
    schema: {
      tags: ['entities'],
      summary: 'What the map shows of a viewport: clusters of the region\'s devices (with how many are in alarm, not connected, under maintenance) and the devices alone in their cell',
      security: [{ bearer: [] }],
      querystring: bodySchema(mapClustersQuerySchema),
      response: { ...errorResponses, 200: mapClustersAnswerSchema },
    },
  }, (request) => mapIndex.view(callerFrom(request), request.query));
}
