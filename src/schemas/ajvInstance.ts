// The one ajv set-up outside Fastify's routes: GraphQL arguments and the generic service on the
// server, forms in the browser. Same options and plugins as the routes (validation.ts): standard
// formats, bounded dates, no non-finite numbers or U+0000.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { AJV_OPTIONS, valueRulesPlugin } from './validation.ts';

// ajv-formats is CommonJS: Node hands over module.exports, bundlers its `default`.
const addFormats = ((ajvFormats as unknown as { default?: typeof ajvFormats }).default ?? ajvFormats) as typeof ajvFormats;

/**
 * The plugins of every ajv, in order; Fastify's routes take them as they are (ajv-formats' own
 * function among them, so that Fastify does not add it again after valueRulesPlugin).
 */
export const AJV_PLUGINS: ((ajv: Ajv, options?: unknown) => Ajv)[] = [addFormats as unknown as (ajv: Ajv) => Ajv, valueRulesPlugin];

export function createAjv(): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], formats: { ...AJV_OPTIONS.formats } });
  for (const plugin of AJV_PLUGINS) plugin(ajv);
  return ajv;
}
