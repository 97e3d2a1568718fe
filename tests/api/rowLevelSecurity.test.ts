// Row-level security fails closed: without a tenant set, the application role sees nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/rows.ts';
import { startTestApp, usingPostgres, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

const countAll = (table: string) => sql.raw(`SELECT count(*)::int AS n FROM "${table}"`);

describe(`row-level security on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('the seeded tables really hold rows', async () => {
    const counts = await t.db.systemTx(async (tx) => {
      const found: Record<string, number> = {};
      // One statement at a time: a transaction is one connection.
      for (const table of ['tenants', 'users', 'entities', 'telemetry', 'watchers']) found[table] = (await rows<{ n: number }>(tx, countAll(table)))[0].n;
      return found;
    });
    expect(counts.tenants).toBe(2);
    expect(counts.entities).toBeGreaterThan(100);
    expect(counts.telemetry).toBeGreaterThan(1000);
  });

  it('a query without tenant context returns no rows from any tenant table', async () => {
    // every table holding tenant rows, as the database has them (the models' derived tables too)
    const tenantTables = await t.db.systemTx((tx) => rows<{ table: string; guarded: boolean }>(tx, sql`
      SELECT c.relname AS table, c.relrowsecurity AS guarded FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND (c.relname = 'tenants' OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped))
      ORDER BY 1`));
    expect(tenantTables.map(({ table }) => table)).toEqual(expect.arrayContaining(['tenants', 'entities', 'telemetry', 'watchers', 'kpi_groups']));
    for (const { table, guarded } of tenantTables) {
      expect(guarded, `${table} has row-level security`).toBe(true);
      const [{ n }] = await t.db.anonymousTx((tx) => rows<{ n: number }>(tx, countAll(table)));
      expect(n, table).toBe(0);
    }
  });

  it('runs as a role that is neither superuser nor able to bypass row-level security', async () => {
    const [role] = await t.db.anonymousTx((tx) => rows<{ super: boolean; bypass: boolean }>(tx,
      sql`SELECT rolsuper AS super, rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`));
    expect(role).toEqual({ super: false, bypass: false });
  });

  it('a tenant cannot write a row into another tenant', async () => {
    const [a, b] = await t.db.systemTx((tx) => rows<{ id: string }>(tx, sql`SELECT id FROM tenants ORDER BY name`));
    const attempt = t.db.tenantTx(a.id, (tx) => tx.execute(sql`INSERT INTO groups (tenant_id, name) VALUES (${b.id}, 'intruder')`));
    const error = await attempt.then(() => undefined, (e: Error & { cause?: Error }) => e);
    expect(String(error?.cause?.message ?? error?.message)).toMatch(/row-level security/);
  });

  it('a tenant context sees exactly its own rows', async () => {
    const perTenant = await t.db.systemTx((tx) => rows<{ tenant_id: string; n: number }>(tx, sql`SELECT tenant_id, count(*)::int AS n FROM entities GROUP BY tenant_id`));
    for (const { tenant_id, n } of perTenant) {
      const [seen] = await t.db.tenantTx(tenant_id, (tx) => rows<{ n: number; other: number }>(tx,
        sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE tenant_id <> ${tenant_id})::int AS other FROM entities`));
      expect(seen).toEqual({ n, other: 0 });
    }
  });
});
