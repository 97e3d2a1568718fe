// Every field of every model, nested ones too, has its label in all six languages, and every
// value of an enumeration its text: a missing one fails here, naming the key, instead of showing
// the raw key (or the raw value) in a form, a list or a drawer.
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../../src/shared/i18n/dictionaries/index.ts';
import { SUPPORTED_LANGUAGES } from '../../../src/shared/i18n/languages.ts';
import { fieldLabel, fieldLabelKey, type FieldSchema, type ModelSchema } from '../../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../../src/schemas/models.ts';

/** Each group of fields shown together (the model's own, an object's, a list item's), as the form
 * shows them: an object's fields one by one unless a widget edits it whole. */
function fieldGroups(model: ModelSchema): { path: string; properties: Readonly<Record<string, FieldSchema>> }[] {
  const groups: { path: string; properties: Readonly<Record<string, FieldSchema>> }[] = [];
  const walk = (path: string, properties: Readonly<Record<string, FieldSchema>>) => {
    groups.push({ path, properties });
    for (const [field, schema] of Object.entries(properties)) {
      if (schema.properties && !schema['x-widget']) walk(`${path}.${field}`, schema.properties);
      if (schema.type === 'array' && schema.items?.properties) walk(`${path}.${field}[]`, schema.items.properties);
    }
  };
  walk(model.$id, model.properties);
  return groups;
}

const text = (language: keyof typeof dictionaries, key: string) => {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dictionaries[language]);
  return typeof found === 'string' && found.trim() ? found : undefined;
};

/** The label texts a model's fields and enumeration values lack in `language`, each named by its key. */
function missingTexts(model: ModelSchema, language: keyof typeof dictionaries): string[] {
  const missing = new Set<string>();
  for (const { properties } of fieldGroups(model)) {
    for (const [field, schema] of Object.entries(properties)) {
      if (!fieldLabel((key) => text(language, key), language, model, field, schema)) {
        missing.add(typeof schema['x-label'] === 'object' ? `${model.$id}.${field} x-label.${language}` : fieldLabelKey(model, field, schema));
      }
      for (const value of schema.enum ?? schema.items?.enum ?? []) {
        if (!text(language, `enumValues.${field}.${String(value)}`)) missing.add(`enumValues.${field}.${String(value)}`);
      }
    }
  }
  return [...missing];
}

describe.each(Object.entries(MODEL_SCHEMAS))('the model %s', (_name, model) => {
  it.each(SUPPORTED_LANGUAGES)('has every field label and enumeration value in %s', (language) => {
    expect(missingTexts(model as unknown as ModelSchema, language)).toEqual([]);
  });

  it.each(SUPPORTED_LANGUAGES)('labels the fields shown together differently in %s', (language) => {
    const twice: string[] = [];
    for (const { path, properties } of fieldGroups(model as unknown as ModelSchema)) {
      const fieldsByLabel = new Map<unknown, string[]>();
      for (const [field, schema] of Object.entries(properties)) {
        const label = fieldLabel((key) => text(language, key), language, model as unknown as ModelSchema, field, schema);
        fieldsByLabel.set(label, [...fieldsByLabel.get(label) ?? [], field]);
      }
      for (const [label, fields] of fieldsByLabel) if (fields.length > 1) twice.push(`${path}: ${fields.join(', ')} are all "${String(label)}"`);
    }
    expect(twice).toEqual([]);
  });
});
