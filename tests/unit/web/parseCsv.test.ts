import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/components/csv/parseCsv.ts';

describe('parseCsv', () => {
  it('reads quoted cells, escaped quotes, CRLF and a byte-order mark', () => {
    expect(parseCsv('\uFEFFts,note\r\n2026-01-01T00:00:00Z,"a, ""quoted"" note"\r\n1767225600000,plain\r\n')).toEqual({
      header: ['ts', 'note'],
      rows: [['2026-01-01T00:00:00Z', 'a, "quoted" note'], ['1767225600000', 'plain']],
    });
  });

  it('takes semicolons when the header has more of them, and skips blank lines', () => {
    expect(parseCsv('ts;power\n\n1767225600000;1,5\n')).toEqual({ header: ['ts', 'power'], rows: [['1767225600000', '1,5']] });
  });

  it('keeps formula-like cells as the text they are', () => {
    expect(parseCsv('ts,a,b,c,d\n1,=1+2,+3,-4,@SUM(A1)').rows).toEqual([['1', '=1+2', '+3', '-4', '@SUM(A1)']]);
  });

  it('an empty file has no header and no rows', () => {
    expect(parseCsv('')).toEqual({ header: [], rows: [] });
    expect(parseCsv('\n\r\n')).toEqual({ header: [], rows: [] });
  });
});
