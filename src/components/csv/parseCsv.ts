// Reads a CSV file's text (RFC 4180: quoted cells with "" inside, commas or semicolons, CRLF or
// LF, a byte-order mark) into its header and rows of text cells. Cells are text only: nothing is
// ever evaluated, so "=1+2" stays those four characters.

export interface ParsedCsv { header: string[]; rows: string[][] }

/** The separator the header line uses: a semicolon when it has more of them than commas. */
function separatorOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
}

export function parseCsv(input: string): ParsedCsv {
  const text = input.replace(/^\uFEFF/, '');
  const separator = separatorOf(text);
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === separator) {
      record.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || record.length) {
    record.push(cell);
    records.push(record);
  }
  const nonEmpty = records.filter((row) => row.some((value) => value.trim() !== ''));
  const [header = [], ...rows] = nonEmpty;
  return { header: header.map((name) => name.trim()), rows };
}
