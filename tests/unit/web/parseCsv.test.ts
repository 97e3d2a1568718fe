// parseCsv (papaparse) keeps what the importers relied on — quoting, separators, line ends, a BOM,
// blank lines, formulas as text — and reports malformed rows by data row number.
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/components/csv/parseCsv.ts';

describe('parseCsv', () => {
  it('reads quoted cells, escaped quotes, CRLF and a byte-order mark', () => {
    expect(parseCsv('\uFEFFts,note\r\n2026-01-01T00:00:00Z,"a, ""quoted"" note"\r\n1767225600000,plain\r\n')).toEqual({
      header: ['ts', 'note'],
      rows: [['2026-01-01T00:00:00Z', 'a, "quoted" note'], ['1767225600000', 'plain']],
      problems: [],
    });
  });

  it('keeps separators and line breaks inside quoted cells, and reads LF, CR and mixed line ends alike', () => {
    const rows = [['1', 'first line\nsecond, with a comma'], ['2', 'plain'], ['3', '"quoted"']];
    for (const end of ['\n', '\r\n', '\r']) {
      expect(parseCsv(`ts,note${end}1,"first line${end}second, with a comma"${end}2,plain${end}3,"""quoted"""${end}`), JSON.stringify(end))
        .toEqual({ header: ['ts', 'note'], rows, problems: [] });
    }
    expect(parseCsv('ts,note\r\n1,a\n2,b\r3,c').rows).toEqual([['1', 'a'], ['2', 'b'], ['3', 'c']]);
  });

  it('takes semicolons when the header has more of them, and skips blank lines, the trailing one too', () => {
    expect(parseCsv('ts;power\n\n1767225600000;1,5\n  \n;\n')).toEqual({ header: ['ts', 'power'], rows: [['1767225600000', '1,5']], problems: [] });
    expect(parseCsv('ts,power\n1,"2;5"\n').rows).toEqual([['1', '2;5']]);
  });

  it('trims the header names, not the cells', () => {
    expect(parseCsv(' ts , note \n1, a ')).toEqual({ header: ['ts', 'note'], rows: [['1', ' a ']], problems: [] });
  });

  it('keeps formula-like cells as the text they are', () => {
    expect(parseCsv('ts,a,b,c,d,e\n1,=1+2,+3,-4,@SUM(A1),"=HYPERLINK(""http://x"")"').rows)
      .toEqual([['1', '=1+2', '+3', '-4', '@SUM(A1)', '=HYPERLINK("http://x")']]);
  });

  it('an empty file has no header and no rows', () => {
    expect(parseCsv('')).toEqual({ header: [], rows: [], problems: [] });
    expect(parseCsv('\n\r\n')).toEqual({ header: [], rows: [], problems: [] });
    expect(parseCsv('\uFEFF')).toEqual({ header: [], rows: [], problems: [] });
  });

  it('names each row whose number of cells is not the header\'s', () => {
    expect(parseCsv('ts,a,b\n1,2,3\n\n4,5\n6,7,8,9\n').problems).toEqual([
      { key: 'cellCount', row: 2, cells: 2, columns: 3 },
      { key: 'cellCount', row: 3, cells: 4, columns: 3 },
    ]);
  });

  it('names the row of a quote that is never closed or is followed by more text', () => {
    expect(parseCsv('ts,note\n1,ok\n\n2,"never closed\n3,lost\n').problems).toEqual([{ key: 'quotes', row: 2 }]);
    expect(parseCsv('ts,note\n1,"closed"early,\n').problems).toContainEqual({ key: 'quotes', row: 1 });
  });
});
