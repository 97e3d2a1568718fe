// Values whose JSON text is made once and carried as it is by every answer that holds them: a
// KPI's data on a public-API board (1.5 MB for a hundred devices' thirty days) is the same object
// for every reader of the board within its refresh interval, and was made into JSON for each.
// A prepared value is never changed afterwards (the shared KPI answers never are).

const texts = new WeakMap<object, string>();

/** The JSON text of `value`, made once and kept while the value lives. */
export function preparedJson(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, text = JSON.stringify(value));
  return text;
}

const preparedText = (value: unknown): string | undefined =>
  (value !== null && typeof value === 'object' ? texts.get(value) : undefined);

/** A record's JSON, as JSON.stringify makes it, with the prepared texts of its fields used as they are. */
export function recordJson(record: Record<string, unknown>): string {
  const values = Object.values(record);
  if (!values.some((value) => preparedText(value) !== undefined)) return JSON.stringify(record);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const text = preparedText(value) ?? JSON.stringify(value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`); // undefined, functions and symbols are left out, as JSON.stringify does
  }
  return `{${parts.join(',')}}`;
}
