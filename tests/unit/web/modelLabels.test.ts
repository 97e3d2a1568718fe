// Every field of every model, nested ones too, has its label in all six languages, and every
// value of an enumeration its text: a missing one fails here, naming the key, instead of showing
// the raw key (or the raw value) in a form, a list or a drawer.
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../../src/i18n/dictionaries/index.ts';
import { SUPPORTED_LANGUAGES } from '../../../src/i18n/languages.ts';
import { fieldLabelKey, type FieldSchema, type ModelSchema } from '../../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../../src/schemas/models.ts';

/** The keys a model's fields and enumeration values are shown with. */
function textKeys(model: ModelSchema): string[] {
  const keys = new Set<string>();
  const walk = (properties: Readonly<Record<string, FieldSchema>>) => {
    for (const [field, schema] of Object.entries(properties)) {
      keys.add(fieldLabelKey(model, field, schema));
      for (const value of schema.enum ?? schema.items?.enum ?? []) keys.add(`enumValues.${field}.${String(value)}`);
      // as the form shows them: an object's fields one by one unless a widget edits it whole
      if (schema.properties && !schema['x-widget']) walk(schema.properties);
      if (schema.type === 'array' && schema.items?.properties) walk(schema.items.properties);
    }
  };
  walk(model.properties);
  return [...keys];
}

const text = (language: keyof typeof dictionaries, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dictionaries[language]);

describe.each(Object.entries(MODEL_SCHEMAS))('the model %s', (_name, model) => {
  it.each(SUPPORTED_LANGUAGES)('has every field label and enumeration value in %s', (language) => {
    const missing = textKeys(model as unknown as ModelSchema).filter((key) => typeof text(language, key) !== 'string' || !(text(language, key) as string).trim());
    expect(missing).toEqual([]);
  });
});
