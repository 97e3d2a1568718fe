// CSV export of a list: each cell as text, cells a spreadsheet would run as a formula (starting
// with =, +, -, @, tab or carriage return) prefixed with an apostrophe (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Rows → `{ column: cell }` objects for the CSV writer. */
export const csvRows = (rows: Record<string, unknown>[], columns: string[]) =>
  rows.map((row) => Object.fromEntries(columns.map((column) => [column, csvCell(row[column])])));
