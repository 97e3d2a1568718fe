// Reads a complex query's text (docs/api.md "Complex queries"): at most 10 kB, JSON, an object
// nested no deeper than any JSON the platform reads (server/jsonDepth.ts), of the supported subset
// (complexQuerySchema.ts, checked by ajv as every schema here). A refusal names the offending path.
import type { ErrorObject } from 'ajv';
import { createAjv } from '../../../src/schemas/ajvInstance.ts';
import { MAX_JSON_DEPTH } from '../../../src/schemas/bounds.ts';
import { ERROR_CODES_KEYWORD } from '../../../src/schemas/validation.ts';
import { memberNestedTooDeep } from '../../jsonDepth.ts';
import { ComplexQueryRefused } from './complexQueryRefused.ts';
import { COMPLEX_QUERY_LIMITS, complexQuerySchema, type ComplexQuery } from './complexQuerySchema.ts';

const validate = createAjv().compile(complexQuerySchema);

/** A path in the query's JSON, dot-separated (`query.bool.must.0.term`). */
export const joinPath = (...parts: (string | number | undefined)[]) => parts.filter((part) => part !== undefined && part !== '').join('.');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The validated query of `text`, or ComplexQueryRefused saying why not. */
export function parseComplexQuery(text: string): ComplexQuery {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > COMPLEX_QUERY_LIMITS.bytes) {
    throw new ComplexQueryRefused(`the query is ${bytes} bytes long; at most ${COMPLEX_QUERY_LIMITS.bytes} bytes (10 kB) are read`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ComplexQueryRefused(`the query is not JSON (${(error as Error).message.slice(0, 200)})`);
  }
  if (!isObject(value)) throw new ComplexQueryRefused('the query must be a JSON object: { "query": …, "aggs": … }');
  const tooDeep = memberNestedTooDeep(value);
  if (tooDeep !== undefined) throw new ComplexQueryRefused(`is nested more than ${MAX_JSON_DEPTH} levels deep`, tooDeep);
  if (!validate(value)) throw refusalOf(validate.errors![0]);
  return value as ComplexQuery;
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** What the schema's first complaint means, in words, at its path. */
function refusalOf(issue: ErrorObject): ComplexQueryRefused {
  const at = issue.instancePath.split('/').slice(1).map(unescapePointer).join('.');
  const params = issue.params as Record<string, unknown>;
  const code = (issue.parentSchema as Record<string, Record<string, string>> | undefined)?.[ERROR_CODES_KEYWORD]?.[issue.keyword];
  if (code === 'NAME') {
    return new ComplexQueryRefused('is not a name of an aggregation: 1 to 100 characters, none of them [, ] or >', joinPath(at, issue.propertyName));
  }
  if (code === 'DATE') {
    return new ComplexQueryRefused('must be an ISO 8601 instant with its offset (2026-01-31T00:00:00Z) or date math (now, now-7d, now/d, now-1M/M)', at);
  }
  switch (issue.keyword) {
    case 'additionalProperties':
      return new ComplexQueryRefused('is not supported', joinPath(at, params.additionalProperty as string));
    case 'required':
      return new ComplexQueryRefused(`needs ${params.missingProperty as string}`, at || undefined);
    case 'enum':
      return new ComplexQueryRefused(`must be ${(params.allowedValues as unknown[]).map((allowed) => JSON.stringify(allowed)).join(' or ')}`, at);
    case 'minProperties':
      return new ComplexQueryRefused('needs at least one of gte, gt, lte and lt', at);
    case 'maxItems':
      return new ComplexQueryRefused(`has more than ${params.limit as number} items`, at);
    case 'minItems':
      return new ComplexQueryRefused(`needs at least ${params.limit as number} item`, at);
    case 'maxLength':
      return new ComplexQueryRefused(`is longer than ${params.limit as number} characters`, at);
    default:
      // type, minimum, maximum, minLength, pattern (NUL): ajv's own words ("must be string", "must be <= 100")
      return new ComplexQueryRefused(issue.message ?? 'is not valid', at || undefined);
  }
}
