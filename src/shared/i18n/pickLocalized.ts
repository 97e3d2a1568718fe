// Multilingual JSON values such as `{ "en": "Main street", "sk": "Hlavná ulica" }` are shown in
// the current language, else in the first language that has a value (SPEC §1).
export type LocalizedValue = Record<string, string | null | undefined> | string | null | undefined;

export function pickLocalized(value: LocalizedValue, language: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  const exact = value[language];
  if (typeof exact === 'string' && exact !== '') return exact;
  for (const candidate of Object.values(value)) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  return '';
}
