// The name of a record in messages ('{name} was updated successfully'): its title field, in the
// interface language when multilingual.
import type { ModelSchema } from '../../schemas/model.ts';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';

export function recordTitle(schema: ModelSchema, record: Record<string, unknown> | undefined, language: string, fallback: string): string {
  const field = schema['x-title'];
  const value = field ? record?.[field] : undefined;
  return pickLocalized(value as LocalizedValue, language) || fallback;
}
