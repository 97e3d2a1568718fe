// The parts of a GraphQL HTTP request that mercurius takes on trust, checked before it runs them.
// Left to mercurius each was a 500: a query graphql-js cannot parse is tried as a JSON syntax
// tree, GET's `variables` and `extensions` reach graphql-js unchecked once parsed, and a GET
// document is assumed to name exactly one operation. Each answers 400 GRAPHQL_VALIDATION instead.
import type { FastifyRequest } from 'fastify';
import { getOperationAST, GraphQLError, Kind, Location, parse, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { parseClientJson } from '../api/clientJson.ts';
import { graphqlParseOptions } from './limits.ts';

interface GraphqlParams { query?: unknown; operationName?: unknown; variables?: unknown; extensions?: unknown }

/** The operation a document runs, or graphql-js's own words for why there is none. */
export function selectedOperation(document: DocumentNode, operationName?: string | null): OperationDefinitionNode {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  if (operationName) throw new GraphQLError(`Unknown operation named "${operationName}".`);
  const any = document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  throw new GraphQLError(any ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.');
}

/** GET's `variables` and `extensions` are JSON text of an object (or null). */
function isJsonObjectText(text: unknown) {
  if (typeof text !== 'string') return false;
  try {
    const value = parseClientJson(text);
    return value === null || (typeof value === 'object' && !Array.isArray(value));
  } catch {
    return false;
  }
}

/** preHandler of the /graphql HTTP routes (GET and POST). */
export async function checkGraphqlRequest(request: FastifyRequest) {
  // The WebSocket upgrade speaks its own protocol; a body or query string off mercurius' schema is answered by mercurius.
  if (request.ws || request.validationError) return;
  const params = (request.method === 'POST' ? request.body : request.query) as GraphqlParams;
  if (typeof params.query !== 'string' || !params.query.trim()) throw new GraphQLError('Must provide query string.');
  if (request.method === 'POST') return;
  for (const name of ['variables', 'extensions'] as const) {
    if (params[name] !== undefined && !isJsonObjectText(params[name])) throw new GraphQLError(`${name} must be a JSON object`);
  }
  // mercurius refuses a mutation over GET by asking the document for its one operation.
  let document: DocumentNode;
  try {
    document = parse(params.query, graphqlParseOptions);
  } catch {
    return; // mercurius answers the syntax error, as it does for POST
  }
  selectedOperation(document, typeof params.operationName === 'string' ? params.operationName : undefined);
}

/** mercurius preValidation hook: only documents of graphql-js's parser run, never a JSON syntax tree. */
export async function refuseUnparsedDocument(_schema: GraphQLSchema, document: DocumentNode) {
  if (!(document?.loc instanceof Location)) throw new GraphQLError('Syntax Error: the query is not a GraphQL document.');
}
