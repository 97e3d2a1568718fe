// REST doors of the models that declare REST paths (SPEC §7: /watcher-list, /create-watcher, …),
// generated from their schemas: the same schemas validate the query or body, describe the answer
// and fill the OpenAPI document. Lists answer a JSON array and the total in `X-Total-Count`. Each
// door checks the model's access rule for its action before the query or body is read.
import { writesDuringReadOnly } from './readOnlyMaintenance.ts';
import type { FastifyInstance } from 'fastify';
import { idSchema } from '../../src/schemas/bounds.ts';
import { createInputSchema, listQuerySchema, recordSchema, updateInputSchema, type Action } from '../../src/schemas/model.ts';
import { modelNames, schemaOf } from '../resources/registry.ts';
import { authorize } from '../resources/resourceAccess.ts';
import type { ListQuery, RecordData, ResourceService } from '../resources/resourceService.ts';
import { callerFrom } from './authenticate.ts';
import { errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

/** `/delete-watcher {id}`, `/delete-profile {input: {id}}`: both shapes of SPEC §7 are accepted. */
const deleteBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: idSchema, input: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: idSchema } } },
  anyOf: [{ required: ['id'] }, { required: ['input'] }],
} as const;

const inputBody = (input: object) => ({ type: 'object', additionalProperties: false, required: ['input'], properties: { input } });

export function resourceRoutes(app: FastifyInstance, resources: ResourceService) {
  for (const name of modelNames()) {
    const model = schemaOf(name);
    const rest = model['x-api'].rest;
    if (!rest) continue;
    const record = recordSchema(model);
    const schema = (summary: string, extra: object) => ({
      tags: [name], summary, security: [{ bearer: [] }], ...extra,
      response: { ...errorResponses, 200: 'response' in extra ? (extra.response as object) : record },
    });
    const accessCheck = (action: Action) => checkAccessFirst((caller) => authorize(caller, model, action));
    const config = { duringReadOnly: writesDuringReadOnly(model) };
    if (rest.list) {
      app.get<{ Querystring: ListQuery }>(rest.list, {
        // checked once, by the resource service, as every list door is: the caller's permission
        // first, then the query (the schema here documents it)
        validatorCompiler: () => () => true,
        schema: schema(`${name} records, a page at a time`, { querystring: listQuerySchema(model), response: { type: 'array', items: record } }),
      }, async (request, reply) => {
        const page = await resources.listJson(callerFrom(request), name, request.query);
        return reply.header('x-total-count', page.total).type('application/json; charset=utf-8').send(page.json);
      });
    }
    if (rest.create) {
      app.post<{ Body: { input: RecordData } }>(rest.create, { onRequest: accessCheck('create'), config, schema: schema(`Create a ${name}`, { body: inputBody(createInputSchema(model)) }) },
        (request) => resources.create(callerFrom(request), name, request.body.input));
    }
    if (rest.update) {
      app.post<{ Body: { input: RecordData } }>(rest.update, { onRequest: accessCheck('update'), config, schema: schema(`Change a ${name}`, { body: inputBody(updateInputSchema(model)) }) },
        (request) => resources.update(callerFrom(request), name, request.body.input));
    }
    if (rest.delete) {
      app.post<{ Body: { id?: number; input?: { id: number } } }>(rest.delete, {
        onRequest: accessCheck('delete'),
        config,
        schema: schema(`Delete a ${name}`, { body: deleteBodySchema, response: { type: 'object', properties: { id: idSchema } } }),
      }, (request) => resources.remove(callerFrom(request), name, (request.body.id ?? request.body.input?.id)!));
    }
  }
}
