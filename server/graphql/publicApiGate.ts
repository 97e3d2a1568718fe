// An API caller's GraphQL document may select only public-API fields at its root
// (server/api/publicApiDoors.ts), in every operation it holds, fragments followed. Checked in the
// HTTP route's preHandler, before mercurius parses, validates or runs anything (mercurius skips its
// own hooks for a document it has cached), so a refused document gets 403 whatever else it holds.
// A document that does not parse is left to mercurius, which refuses it without running anything.
import type { FastifyRequest } from 'fastify';
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { apiCallerRefused, PUBLIC_API_GRAPHQL_FIELDS } from '../api/publicApiDoors.ts';
import { isApiCaller } from '../auth/caller.ts';
import { graphqlParseOptions } from './limits.ts';

/** The field names selected at the root of every operation of the document. */
export function rootFieldNames(document: DocumentNode): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const names: string[] = [];
  const followed = new Set<string>();
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!followed.has(selection.name.value)) {
        followed.add(selection.name.value); // a fragment once (a cycle is refused by validation anyway)
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) walk(definition.selectionSet);
  return names;
}

/** preHandler of the /graphql HTTP routes, after checkGraphqlRequest. */
export async function refuseNonPublicGraphql(request: FastifyRequest) {
  if (request.ws || !isApiCaller(request.caller)) return;
  const params = (request.method === 'POST' ? request.body : request.query) as { query?: unknown } | undefined;
  if (typeof params?.query !== 'string') return;
  let document: DocumentNode;
  try {
    document = parse(params.query, graphqlParseOptions);
  } catch {
    return;
  }
  if (rootFieldNames(document).some((field) => !PUBLIC_API_GRAPHQL_FIELDS.has(field))) throw apiCallerRefused();
}
