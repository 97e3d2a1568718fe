// The 400 answer of a value a schema refused (docs/api.md "Errors"): ajv's failed keywords as a
// short list of { code, field, message, params }, in SPEC §5's words where it gives them. Fastify's
// route validation (server/api/httpErrors.ts) and the validator outside routes
// (server/schemaValidator.ts) both answer with it.
import { API_USERNAME_CHARACTERS } from '../src/schemas/apiUser.ts';
import { FRAME_ORIGIN_INVALID_MESSAGE } from '../src/schemas/frameOrigins.ts';
import { MAINTENANCE_READ_ONLY_TENANT_MESSAGE } from '../src/schemas/maintenanceWindow.ts';
import { NO_NUL } from '../src/schemas/bounds.ts';
import { COLOUR_MAPPING_MESSAGES } from '../src/schemas/colourMapping.ts';
import { ERROR_CODES_KEYWORD, FIRST_YEAR, LAST_YEAR } from '../src/schemas/validation.ts';
import type { ErrorItem } from './errors.ts';

export interface ValidationIssue {
  instancePath: string;
  keyword?: string;
  message?: string;
  params: Record<string, unknown>;
  /** The value refused (ajv's `verbose`). */
  data?: unknown;
  parentSchema?: Record<string, unknown>;
}

/** At most this many entries per answer, however much is wrong. */
export const MAX_VALIDATION_ITEMS = 10;

function fieldOf(issue: ValidationIssue, context: string): string {
  const path = issue.instancePath.split('/').filter(Boolean);
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') path.push(extra);
  return path.join('.') || context;
}

/** Bounds of numbers in the words of SPEC §5, with codes clients translate. */
const NUMBER_BOUNDS: Record<string, { code: string; message: (field: string, limit: unknown) => string }> = {
  maximum: { code: 'NUMBER_MAX', message: (field, limit) => `The ${field} field must be ${limit} or less` },
  minimum: { code: 'NUMBER_MIN', message: (field, limit) => `The ${field} field must be ${limit} or more` },
};

/** English texts of codes the schemas name (x-errors) where SPEC gives the words. */
const CODE_MESSAGES: Record<string, (limit: unknown) => string> = {
  PROFILE_TOO_MANY_INTERVALS: (limit) => `It is not possible to create more than ${limit} intervals.`,
  KPI_CONDITIONS_EMPTY: () => COLOUR_MAPPING_MESSAGES.KPI_CONDITIONS_EMPTY,
  API_USERNAME_CHARACTERS: () => API_USERNAME_CHARACTERS,
  FRAME_ORIGIN_INVALID: () => FRAME_ORIGIN_INVALID_MESSAGE,
  MAINTENANCE_READ_ONLY_TENANT: () => MAINTENANCE_READ_ONLY_TENANT_MESSAGE,
};

/** The last segment of a field path (`input.definition.interval` → `interval`), as a person names it. */
const shortName = (field: string) => field.slice(field.lastIndexOf('.') + 1);

function describe(issue: ValidationIssue, field: string): string {
  const coded = CODE_MESSAGES[codeOf(issue)];
  if (coded) return coded(issue.params.limit);
  const bound = issue.keyword ? NUMBER_BOUNDS[issue.keyword] : undefined;
  if (bound) return bound.message(shortName(field), issue.params.limit);
  if (issue.params.additionalProperty !== undefined) return `${field} is not allowed`;
  if (issue.params.missingProperty !== undefined) return `${field} is required`;
  if (issue.keyword === 'pattern' && (issue.params.pattern === NO_NUL || (typeof issue.data === 'string' && issue.data.includes('\u0000')))) return `${field} must not contain NUL characters`;
  if (issue.keyword === 'format' && issue.params.format === 'date-time') return `${field} must be an instant from ${FIRST_YEAR} to ${LAST_YEAR} (ISO 8601, e.g. 2026-01-31T06:00:00Z)`;
  if (issue.keyword === 'format' && issue.params.format === 'date') return `${field} must be a date from ${FIRST_YEAR} to ${LAST_YEAR} (YYYY-MM-DD)`;
  return `${field} ${issue.message ?? 'is invalid'}`;
}

/** The error code a schema names for the failed keyword (`x-errors`), else VALIDATION. */
function codeOf(issue: ValidationIssue): string {
  const codes = issue.parentSchema?.[ERROR_CODES_KEYWORD] as Record<string, string> | undefined;
  return (issue.keyword && (codes?.[issue.keyword] ?? NUMBER_BOUNDS[issue.keyword]?.code)) || 'VALIDATION';
}

/** Scalar params of the failed keyword (`limit`, `pattern`…), for translated messages. */
function paramsOf(issue: ValidationIssue): ErrorItem['params'] {
  const scalars = Object.entries(issue.params).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  return scalars.length ? Object.fromEntries(scalars) as ErrorItem['params'] : undefined;
}

export function validationItems(issues: readonly ValidationIssue[], context: string): ErrorItem[] {
  return issues.slice(0, MAX_VALIDATION_ITEMS).map((issue) => {
    const field = fieldOf(issue, context);
    const code = codeOf(issue);
    const params = code === 'VALIDATION' ? undefined : paramsOf(issue);
    return { code, field, message: describe(issue, field), ...(params ? { params } : {}) };
  });
}
