// The label a form, a list, a drawer or a CSV header shows for a model's field, in the reader's
// language (schemas/model.ts fieldLabel: the field's own x-label texts, or its dictionary key).
import { useTranslation } from 'react-i18next';
import { useTranslate } from '@refinedev/core';
import { fieldLabel, type FieldSchema, type ModelSchema } from '../../schemas/model.ts';

export function useFieldLabel() {
  const t = useTranslate();
  const { i18n } = useTranslation();
  return (model: ModelSchema, field: string, schema: FieldSchema = model.properties[field]) =>
    fieldLabel((key) => t(key), i18n.language, model, field, schema) ?? field;
}
