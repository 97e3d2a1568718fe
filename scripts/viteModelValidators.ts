// A Vite plugin: the module `virtual:model-validators` holds, for each model, the validator of
// its create body, compiled by ajv at build time from the same schema the server uses. The
// browser's CSP forbids eval, so ajv cannot compile there. Formats are left to the widgets (the
// pickers make dates; the cron input checks its expression); the server checks them all.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import type { Plugin } from 'vite';
import { createInputSchema, type ModelSchema } from '../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../src/schemas/models.ts';
import { AJV_OPTIONS } from '../src/schemas/validation.ts';

const ID = 'virtual:model-validators';
const RESOLVED = `\0${ID}`;
const standaloneCode = ((standalone as unknown as { default?: typeof standalone }).default ?? standalone) as typeof standalone;

export function modelValidatorsCode(): string {
  const ajv = new Ajv({
    ...AJV_OPTIONS,
    keywords: [...AJV_OPTIONS.keywords],
    formats: { cron: true, date: true, 'date-time': true, uuid: true },
    unicode: false, // string lengths without ajv's runtime helper (a `require` the browser has not)
    code: { source: true, esm: true },
  });
  const exports: Record<string, string> = {};
  for (const [name, schema] of Object.entries(MODEL_SCHEMAS)) {
    ajv.addSchema({ ...createInputSchema(schema as unknown as ModelSchema), $id: name });
    exports[name] = name;
  }
  const code = standaloneCode(ajv, exports);
  if (code.includes('require(')) throw new Error('model validators need a runtime helper the browser cannot load');
  return code;
}

export function modelValidators(): Plugin {
  return {
    name: 'terrasight-model-validators',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? modelValidatorsCode() : undefined),
  };
}
