import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inlineSql, literal, uuidLiteral } from '../../../server/db/inlineSql.ts';

describe('inlineSql', () => {
  it('writes parameters as escaped literals', () => {
    expect(inlineSql(sql`SELECT * FROM t WHERE a = ${5} AND b = ${'x'} AND c = ${true} AND d = ${null}`))
      .toBe("SELECT * FROM t WHERE a = 5 AND b = 'x' AND c = TRUE AND d = NULL");
  });

  it('keeps quotes and backslashes inside the literal', () => {
    expect(literal("'; DROP TABLE users; --")).toBe("'''; DROP TABLE users; --'");
    expect(literal('a\\\'b')).toBe(" E'a\\\\''b'");
    expect(literal(new Date('2026-01-02T03:04:05.678Z'))).toBe("'2026-01-02T03:04:05.678Z'");
    expect(literal({ a: "it's" })).toBe(`'{"a":"it''s"}'`);
  });

  it('refuses what it cannot write safely', () => {
    expect(() => literal('a\u0000b')).toThrow();
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => uuidLiteral("x' OR '1'='1")).toThrow();
    expect(uuidLiteral('37cdd4ed-4c8f-4b4d-95fe-4812ed9021e0')).toBe("'37cdd4ed-4c8f-4b4d-95fe-4812ed9021e0'");
  });
});
