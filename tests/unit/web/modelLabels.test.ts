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

/** Each group of fields shown together (the model's own, an object's, a list item's), as the form shows them. */
function fieldGroups(model: ModelSchema): { path: string; keys: Record<string, string> }[] {
  const groups: { path: string; keys: Record<string, string> }[] = [];
  const walk = (path: string, properties: Readonly<Record<string, FieldSchema>>) => {
    groups.push({ path, keys: Object.fromEntries(Object.entries(properties).map(([field, schema]) => [field, fieldLabelKey(model, field, schema)])) });
    for (const [field, schema] of Object.entries(properties)) {
      if (schema.properties && !schema['x-widget']) walk(`${path}.${field}`, schema.properties);
      if (schema.type === 'array' && schema.items?.properties) walk(`${path}.${field}[]`, schema.items.properties);
    }
  };
  walk(model.$id, model.properties);
  return groups;
}

describe.each(Object.entries(MODEL_SCHEMAS))('the model %s', (_name, model) => {
  it.each(SUPPORTED_LANGUAGES)('has every field label and enumeration value in %s', (language) => {
    const missing = textKeys(model as unknown as ModelSchema).filter((key) => typeof text(language, key) !== 'string' || !(text(language, key) as string).trim());
    expect(missing).toEqual([]);
  });

  it.each(SUPPORTED_LANGUAGES)('labels the fields shown together differently in %s', (language) => {
    const twice: string[] = [];
    for (const { path, keys } of fieldGroups(model as unknown as ModelSchema)) {
      const fieldsByLabel = new Map<unknown, string[]>();
      for (const [field, key] of Object.entries(keys)) fieldsByLabel.set(text(language, key), [...fieldsByLabel.get(text(language, key)) ?? [], field]);
      for (const [label, fields] of fieldsByLabel) if (fields.length > 1) twice.push(`${path}: ${fields.join(', ')} are all "${String(label)}"`);
    }
    expect(twice).toEqual([]);
  });
});
