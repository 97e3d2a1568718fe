// The doors' side of read-only maintenance (server/services/maintenanceGuard.ts): REST writes are
// refused once the route's own access check and validation have passed; a GraphQL document with a
// mutation is refused before it runs, unless all its fields write what maintenance itself needs.
import type { FastifyInstance } from 'fastify';
import { Kind, type DocumentNode } from 'graphql';
import type { MercuriusContext } from 'mercurius';
import { operationNames } from '../../src/schemas/graphqlOperations.ts';
import { MODEL_SCHEMAS } from '../../src/schemas/models.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import type { MaintenanceGuard } from '../services/maintenanceGuard.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served during read-only maintenance: it writes nothing (a preview), or it decides for itself (GraphQL). */
    duringReadOnly?: boolean;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Models written during read-only maintenance (`x-writes-during-read-only`: the windows, so that one can be ended). */
const exemptModels = (Object.values(MODEL_SCHEMAS) as ModelSchema[]).filter((model) => model['x-writes-during-read-only'] === true);

/** Whether a REST route of a model is served during read-only maintenance. */
export const writesDuringReadOnly = (model: ModelSchema) => model['x-writes-during-read-only'] === true;

const EXEMPT_MUTATIONS = new Set(exemptModels.flatMap((model) => {
  const names = operationNames(model);
  return [names.create, names.update, names.delete];
}));

/** REST: a write of the caller's tenant is refused while its read-only window is in force. */
export function refuseRestWritesWhileReadOnly(scope: FastifyInstance, guard: MaintenanceGuard): void {
  scope.addHook('preHandler', async (request) => {
    if (!WRITE_METHODS.has(request.method) || request.routeOptions.config?.duringReadOnly || !request.caller) return;
    await guard.refuseWhileReadOnly(request.caller.tenantId);
  });
}

/** GraphQL (a preExecution hook): a mutation other than the exempt ones is refused while the tenant is read-only. */
export function graphqlReadOnlyHook(guard: MaintenanceGuard) {
  return async (_schema: unknown, document: DocumentNode, context: MercuriusContext & { caller?: { tenantId: string } }) => {
    const caller = context.caller;
    if (!caller) return;
    const mutations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation');
    const writes = mutations.some((mutation) => mutation.kind === Kind.OPERATION_DEFINITION
      && mutation.selectionSet.selections.some((selection) => selection.kind !== Kind.FIELD || !EXEMPT_MUTATIONS.has(selection.name.value)));
    if (writes) await guard.refuseWhileReadOnly(caller.tenantId);
  };
}
