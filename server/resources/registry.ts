// The models the engine serves: the built-in ones (src/schemas/models.ts with their bindings) and
// any registered before the app is built (a plug-in, or a test's throw-away model).
import type { ModelSchema } from '../../src/schemas/model.ts';
import { MODEL_SCHEMAS } from '../../src/schemas/models.ts';
import { MODEL_BINDINGS, type ModelBinding } from './bindings.ts';

interface RegisteredModel { schema: ModelSchema; binding: ModelBinding }

const registered = new Map<string, RegisteredModel>(
  Object.entries(MODEL_SCHEMAS).map(([name, schema]) => [name, { schema: schema as unknown as ModelSchema, binding: MODEL_BINDINGS[name as keyof typeof MODEL_BINDINGS] }]),
);

/**
 * Adds a model; its routes and GraphQL operations exist in apps built afterwards. Answers the
 * function that removes it again (from apps built after that).
 */
export function registerModel(schema: ModelSchema, binding: ModelBinding): () => void {
  if (registered.has(schema.$id)) throw new Error(`The model ${schema.$id} is already registered`);
  const entry = { schema, binding };
  registered.set(schema.$id, entry);
  return () => {
    if (registered.get(schema.$id) === entry) registered.delete(schema.$id);
  };
}

export const modelNames = () => [...registered.keys()];
export const isModel = (name: string) => registered.has(name);

export function registeredModel(name: string): RegisteredModel {
  const model = registered.get(name);
  if (!model) throw new Error(`No model ${name}`);
  return model;
}

export const schemaOf = (name: string) => registeredModel(name).schema;
