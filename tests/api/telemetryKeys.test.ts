// GET /telemetry-keys: the keys entities have reported, for the KPI builder's key picker; the
// tenant's own only, bounded, and refused with 400 for malformed lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities, entityTypes } from '../../server/db/schema.ts';
import { telemetryWriter } from '../../server/telemetry/telemetryWriter.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let cityAdmin: string;
let facilityAdmin: string;
let cityTenant: string;
let meterIds: number[];
let meterType: number;

beforeAll(async () => {
  t = await startTestApp();
  cityAdmin = (await t.login('admin@demo.city')).access_token;
  facilityAdmin = (await t.login('admin@demo.facility')).access_token;
  const me = await t.get('/tenant', cityAdmin);
  cityTenant = me.body.id;
  ({ meterIds, meterType } = await t.db.systemTx(async (tx) => {
    const [type] = await tx.insert(entityTypes).values({ tenantId: cityTenant, category: 'test', name: 'Key meter' }).returning({ id: entityTypes.id });
    const rows = await tx.insert(entities).values([1, 2].map((n) => ({ tenantId: cityTenant, entityTypeId: type.id, name: { en: `Key meter ${n}` } }))).returning({ id: entities.id });
    return { meterType: type.id, meterIds: rows.map((row) => row.id) };
  }));
  const writer = telemetryWriter(t.db);
  await writer.write([
    { tenantId: cityTenant, entityId: meterIds[0], key: 'zz_flow', ts: Date.now(), value: 3 },
    { tenantId: cityTenant, entityId: meterIds[1], key: 'zz_pressure<b>', ts: Date.now(), value: 1.5 },
  ]);
  await writer.close();
});
afterAll(() => t?.close());

describe('GET /telemetry-keys', () => {
  it('names the keys the chosen entities or entity types report', async () => {
    expect((await t.get(`/telemetry-keys?ids=${meterIds[0]}`, cityAdmin)).body).toEqual(['zz_flow']);
    expect((await t.get(`/telemetry-keys?types=${meterType}`, cityAdmin)).body).toEqual(['zz_flow', 'zz_pressure<b>']);
    expect((await t.get(`/telemetry-keys?ids=${meterIds[1]}&types=${meterType}`, cityAdmin)).body).toEqual(['zz_flow', 'zz_pressure<b>']);
    const all = await t.get('/telemetry-keys', cityAdmin);
    expect(all.status).toBe(200);
    expect(all.body).toEqual(expect.arrayContaining(['zz_flow', 'zz_pressure<b>']));
  });

  it('never names another tenant\'s keys, even for its entity ids', async () => {
    expect((await t.get(`/telemetry-keys?ids=${meterIds.join(',')}`, facilityAdmin)).body).toEqual([]);
    expect((await t.get('/telemetry-keys', facilityAdmin)).body).not.toContain('zz_flow');
  });

  it('refuses malformed lists with 400 and strangers with 401', async () => {
    for (const query of ['ids=abc', 'ids=0', 'types=1,,2', 'ids=99999999999', 'other=1', `ids=${Array.from({ length: 501 }, (_v, i) => i + 1).join(',')}`]) {
      const answer = await t.get(`/telemetry-keys?${query}`, cityAdmin);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body)).not.toMatch(/select|telemetry_latest|\.ts:/i);
    }
    expect((await t.send({ path: '/telemetry-keys' })).status).toBe(401);
  });
});
