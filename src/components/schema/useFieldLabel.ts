// The label a form, a list, a drawer or a CSV header shows for a model's field, in the reader's
// language (schemas/model.ts fieldLabel: the field's dictionary key).
import { useTranslate } from '@refinedev/core';
import { fieldLabel, type FieldSchema, type ModelSchema } from '../../schemas/model.ts';

export function useFieldLabel() {
  const t = useTranslate();
  return (model: ModelSchema, field: string, schema: FieldSchema = model.properties[field]) =>
    fieldLabel((key) => t(key), model, field, schema) ?? field;
}
