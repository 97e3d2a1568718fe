// Bounds on every GraphQL document, checked before anything executes (docs/decisions.md
// "GraphQL limits"): tokens while parsing, then depth, aliases, directives and cost as
// validation rules from GraphQL Armor.
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';

/** GraphQL over HTTP and WebSocket. */
export const GRAPHQL_PATH = '/graphql';

export const GRAPHQL_LIMITS = {
  /** Lexical tokens of one document; parsing stops beyond it. */
  maxTokens: 2000,
  /** Field nesting, counted from the operation (an entity's children's children… included). */
  maxDepth: 8,
  /** Aliased fields per operation: one document cannot repeat a read a thousand times. */
  maxAliases: 10,
  maxDirectives: 20,
  /** Cost: 2 per object field, 1 per scalar, ×1.5 per level of depth. */
  maxCost: 1000,
} as const;

export const graphqlParseOptions = { maxTokens: GRAPHQL_LIMITS.maxTokens };

export const graphqlValidationRules = [
  maxDepthRule({ n: GRAPHQL_LIMITS.maxDepth, exposeLimits: true }),
  maxAliasesRule({ n: GRAPHQL_LIMITS.maxAliases, exposeLimits: true }),
  maxDirectivesRule({ n: GRAPHQL_LIMITS.maxDirectives, exposeLimits: true }),
  costLimitRule({ maxCost: GRAPHQL_LIMITS.maxCost, exposeLimits: true }),
];
