// How request schemas are checked, on the server (Fastify, GraphQL arguments) and in the browser.
// - allErrors off: validation stops at the first problem, so a huge body cannot make the server
//   build (and send) a huge list of errors;
// - strictNumbers: NaN and Infinity are never numbers;
// - `x-errors` maps a failed keyword to an error code that clients translate, e.g.
//   `{ minLength: 'PASSWORD_TOO_SHORT' }`; the failed keyword's params travel with it.
import { cronFormat } from './cron.ts';
import { UI_KEYWORDS } from './model.ts';

export const ERROR_CODES_KEYWORD = 'x-errors';

export const AJV_OPTIONS = {
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  strictNumbers: true,
  verbose: true,
  // a field may be e.g. a number or a string until an if/then rule of its model decides
  allowUnionTypes: true,
  keywords: [ERROR_CODES_KEYWORD, ...UI_KEYWORDS],
  formats: { cron: cronFormat },
} as const;

/** JSON pointer of the first NaN or ±Infinity inside `data`, if any. */
export function nonFinitePath(data: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[data, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return path;
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([child, `${path}/${key}`]);
    }
  }
  return undefined;
}

interface Validator { (data: unknown, ...rest: unknown[]): boolean; errors?: unknown[] | null }

/**
 * Wraps a compiled ajv validator so that it also refuses non-finite numbers. ajv's type coercion
 * turns the query string "Infinity" (or "1e999") into Infinity and then skips the bounds
 * (`minimum`/`maximum` only look at finite numbers), even with strictNumbers.
 */
export function finiteNumbersOnly<V extends Validator>(validate: V): V {
  const wrapped = ((data: unknown, ...rest: unknown[]) => {
    if (!validate(data, ...rest)) {
      wrapped.errors = validate.errors;
      return false;
    }
    const path = nonFinitePath(data);
    wrapped.errors = path === undefined ? null : [{ instancePath: path, keyword: 'type', params: {}, message: 'must be a finite number' }];
    return path === undefined;
  }) as V;
  return wrapped;
}

/** An ajv plugin: every schema it compiles refuses non-finite numbers (see finiteNumbersOnly). */
export function finiteNumbersPlugin<A extends { compile: (schema: any) => any }>(ajv: A): A {
  const compile = ajv.compile.bind(ajv);
  ajv.compile = (schema: unknown) => finiteNumbersOnly(compile(schema));
  return ajv;
}
