// Validates values outside Fastify's routes (GraphQL arguments, the services' inputs) with the
// same schemas and ajv options as the REST routes, and the same 400 answer (validationItems.ts).
// Every layer may use it: it knows no door. The nesting bound comes first:
// GraphQL arguments reach this unmeasured (their resolvers check the caller's permission first),
// and the copy and ajv below recurse.
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../src/schemas/ajvInstance.ts';
import { ApiError } from './errors.ts';
import { jsonTooDeep, memberNestedTooDeep } from './jsonDepth.ts';
import { validationItems, type ValidationIssue } from './validationItems.ts';

const ajv = createAjv();
const compiled = new WeakMap<object, ValidateFunction>();

/** Returns `value` (coerced, defaults applied) or throws a 400 ApiError naming the fields. */
export function validated<T>(schema: object, value: unknown, context: string): T {
  let validate = compiled.get(schema);
  if (!validate) {
    const { $id: _id, ...rest } = schema as { $id?: string };
    validate = ajv.compile(rest);
    compiled.set(schema, validate);
  }
  const tooDeep = memberNestedTooDeep(value);
  if (tooDeep !== undefined) throw jsonTooDeep(tooDeep || context);
  const copy = structuredClone(value ?? {});
  if (!validate(copy)) throw ApiError.of(400, validationItems((validate.errors ?? []) as ValidationIssue[], context));
  return copy as T;
}
