// The one ajv set-up outside Fastify's routes: GraphQL arguments and the generic service on the
// server, forms in the browser. Same options as the routes (validation.ts), plus standard formats.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { AJV_OPTIONS, finiteNumbersPlugin } from './validation.ts';

// ajv-formats is CommonJS: Node hands over module.exports, bundlers its `default`.
const addFormats = ((ajvFormats as unknown as { default?: typeof ajvFormats }).default ?? ajvFormats) as typeof ajvFormats;

export function createAjv(): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords], formats: { ...AJV_OPTIONS.formats } });
  addFormats(ajv);
  return finiteNumbersPlugin(ajv);
}
