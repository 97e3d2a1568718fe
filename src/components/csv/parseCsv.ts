// Reads a CSV file's text into its header and rows of text cells, with papaparse: RFC 4180
// quoting ("" inside quoted cells, separators and line breaks in them), commas or semicolons,
// CRLF, LF or CR line ends (mixed too: each becomes LF first, also inside quoted cells), a
// byte-order mark, blank lines skipped. Cells are text only: nothing is ever typed or evaluated,
// so "=1+2" stays those four characters. A row whose quotes do not close, or whose number of
// cells differs from the header's, is reported by its data row number (1 = the first row under
// the header, as the importers and the server count).
import Papa from 'papaparse';

/** `key` is the message's translation key under `csv.`; the other fields are its placeholders. */
export interface CsvProblem { key: 'quotes' | 'cellCount'; row: number; cells?: number; columns?: number }

export interface ParsedCsv { header: string[]; rows: string[][]; problems: CsvProblem[] }

/** The separator the header line uses: a semicolon when it has more of them than commas. */
function separatorOf(text: string): ',' | ';' {
  const firstLine = text.slice(0, text.search(/\n|$/));
  return (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
}

const isBlank = (record: string[]) => record.every((cell) => cell.trim() === '');

export function parseCsv(input: string): ParsedCsv {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  // Blank lines are dropped here, not by papaparse, so that its error rows (indexes into every
  // record, blank and header included) can be turned into data row numbers.
  const { data, errors } = Papa.parse<string[]>(text, {
    delimiter: separatorOf(text), newline: '\n', quoteChar: '"', escapeChar: '"', header: false, dynamicTyping: false, skipEmptyLines: false,
  });
  let header: string[] | undefined;
  const rows: string[][] = [];
  /** For each record of papaparse, the data row number it is (or the last one before it). */
  const rowNumberOfRecord = data.map((record) => {
    if (isBlank(record)) return rows.length;
    if (header) rows.push(record);
    else header = record.map((name) => name.trim());
    return rows.length;
  });
  const columns = header?.length ?? 0;
  const quoteRows = new Set(errors.filter((error) => error.type === 'Quotes').map((error) => Math.max(1, rowNumberOfRecord[error.row ?? 0] ?? rows.length)));
  const problems: CsvProblem[] = [
    ...[...quoteRows].map((row) => ({ key: 'quotes' as const, row })),
    ...rows.flatMap((cells, index) => (cells.length === columns ? [] : [{ key: 'cellCount' as const, row: index + 1, cells: cells.length, columns }])),
  ].sort((a, b) => a.row - b.row);
  return { header: header ?? [], rows, problems };
}
