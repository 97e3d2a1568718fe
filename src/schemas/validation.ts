// How request schemas are checked, on the server (Fastify, GraphQL arguments) and in the browser.
// - allErrors off: validation stops at the first problem, so a huge body cannot make the server
//   build (and send) a huge list of errors;
// - strictNumbers: NaN and Infinity are never numbers;
// - `x-errors` maps a failed keyword to an error code that clients translate, e.g.
//   `{ minLength: 'PASSWORD_TOO_SHORT' }`; the failed keyword's params travel with it.
import { NO_NUL } from './bounds.ts';
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

/** What no schema accepts, whatever it says: a number that is not finite, a string or key holding U+0000. */
export interface RefusedValue { path: string; problem: 'not-finite' | 'nul' }

/**
 * The first value of `data` that no door takes, with its JSON pointer: NaN or ±Infinity (the query
 * string "Infinity" coerced), or U+0000 in a string or a key (PostgreSQL stores neither in text or
 * jsonb; a name pattern's `\S` matched it once).
 */
export function refusedValueOf(data: unknown): RefusedValue | undefined {
  const stack: Array<[unknown, string]> = [[data, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, problem: 'not-finite' };
    } else if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path, problem: 'nul' };
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return { path: `${path}/${key}`, problem: 'nul' };
        stack.push([child, `${path}/${key}`]);
      }
    }
  }
  return undefined;
}

interface Validator { (data: unknown, ...rest: unknown[]): boolean; errors?: unknown[] | null }

/**
 * Wraps a compiled ajv validator so that it also refuses what refusedValueOf finds. ajv's type
 * coercion turns the query string "Infinity" (or "1e999") into Infinity and then skips the bounds
 * (`minimum`/`maximum` only look at finite numbers), even with strictNumbers; and a text field's
 * own pattern cannot be trusted to exclude U+0000 everywhere.
 */
export function storableValuesOnly<V extends Validator>(validate: V): V {
  const wrapped = ((data: unknown, ...rest: unknown[]) => {
    if (!validate(data, ...rest)) {
      wrapped.errors = validate.errors;
      return false;
    }
    const refused = refusedValueOf(data);
    wrapped.errors = refused === undefined ? null : [refused.problem === 'nul'
      ? { instancePath: refused.path, keyword: 'pattern', params: { pattern: NO_NUL }, message: 'must not contain NUL characters' }
      : { instancePath: refused.path, keyword: 'type', params: {}, message: 'must be a finite number' }];
    return refused === undefined;
  }) as V;
  return wrapped;
}

/** The years a date or an instant may name: what is added to one (a compare shift, a range) stays within what every layer handles. */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 2199;

const yearInRange = (text: string) => {
  const year = Number(text.slice(0, 4));
  return year >= FIRST_YEAR && year <= LAST_YEAR;
};

type FormatDefinition = { validate: (text: string) => boolean; compare?: unknown } | ((text: string) => boolean) | RegExp;
const validates = (format: FormatDefinition, text: string) =>
  format instanceof RegExp ? format.test(text) : typeof format === 'function' ? format(text) : format.validate(text);

/**
 * An ajv plugin, after ajv-formats: the rules every schema keeps whatever it says. Dates and
 * instants (`date`, `date-time`) name a year from FIRST_YEAR to LAST_YEAR (ajv's take 0000–9999,
 * and 9999-12-31 plus a shift is past what PostgreSQL and the charts read); every compiled
 * validator refuses non-finite numbers and U+0000 (storableValuesOnly).
 */
export function valueRulesPlugin<A extends { compile: (schema: any) => any }>(ajv: A): A {
  const formats = (ajv as unknown as { formats: Record<string, FormatDefinition> }).formats;
  const addFormat = (ajv as unknown as { addFormat(name: string, format: object): void }).addFormat.bind(ajv);
  for (const name of ['date', 'date-time']) {
    const format = formats[name];
    if (!format) throw new Error(`valueRulesPlugin needs the format ${name} (ajv-formats) first`);
    addFormat(name, { type: 'string', validate: (text: string) => validates(format, text) && yearInRange(text), ...(typeof format === 'object' && 'compare' in format ? { compare: format.compare } : {}) });
  }
  const compile = ajv.compile.bind(ajv);
  ajv.compile = (schema: unknown) => storableValuesOnly(compile(schema));
  return ajv;
}
