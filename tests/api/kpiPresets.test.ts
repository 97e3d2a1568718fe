// A user's KPI presets (SPEC §3 "Dashboard state: … KPI list and presets"), kept on the server:
// each user sees and changes only their own, per dashboard one, naming only their tenant's KPIs;
// a KPI removed from the tenant leaves every preset (SPEC §4), and each owner's open dashboards hear
// of their own preset's change; bad input is a 400 naming the field.
import { eq, sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { isDeepStrictEqual } from 'node:util';
import { dropKpiFromPresets } from '../../server/db/kpiPresetQueries.ts';
import { kpis as kpiTable } from '../../server/db/schema.ts';
import { modelOf } from '../../server/resources/resourceModel.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { graphqlDocuments } from '../../src/schemas/graphqlOperations.ts';
import { kpiPresetSchema } from '../../src/schemas/kpiPreset.ts';
import { kpiSchema } from '../../src/schemas/kpi.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';
import { skipUnlessPostgres, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let cityAdmin: string;
let operator: string;
let facilityAdmin: string;
/** KPI ids of each tenant, in id order. */
let cityKpis: number[];
let facilityKpis: number[];

const presets = graphqlDocuments(kpiPresetSchema as unknown as ModelSchema);
const kpis = graphqlDocuments(kpiSchema as unknown as ModelSchema);
const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
const createPreset = (token: string, input: Record<string, unknown>) => gql(token, presets.create(input), input);
const updatePreset = (token: string, input: Record<string, unknown>) => gql(token, presets.update(input), input);
const readPreset = (token: string, id: number | string) => gql(token, presets.one({ id }), { id });
const deletePreset = (token: string, id: number | string) => gql(token, presets.delete({ id }), { id });
/** The caller's presets through REST, as the dashboard reads them. */
const ownPresets = async (token: string) => {
  const answer = await t.get('/kpi-preset-list', token);
  expect(answer.status).toBe(200);
  return answer.body as { id: number; user_uuid: string; module: string; items: { kpi_id: number; width: number }[] }[];
};
const kpiIdsOf = async (token: string) => ((await t.get('/kpi-list', token)).body as { id: number }[]).map((kpi) => Number(kpi.id)).sort((a, b) => a - b);
const firstError = (answer: { body: any }) => {
  const [error] = answer.body.errors;
  return { code: error.extensions?.code ?? error.code, field: error.extensions?.field ?? error.field, message: error.message };
};

beforeAll(async () => {
  t = await startTestApp();
  [cityAdmin, operator, facilityAdmin] = await Promise.all(['admin@demo.city', 'operator@demo.city', 'admin@demo.facility'].map(async (email) => (await t.login(email)).access_token));
  cityKpis = await kpiIdsOf(cityAdmin);
  facilityKpis = await kpiIdsOf(facilityAdmin);
  expect(cityKpis.length).toBeGreaterThanOrEqual(3);
});
afterAll(async () => { await t?.close(); });

describe('a user keeps their own preset', () => {
  let presetId: number;

  it('the operator, who cannot edit KPIs, creates a preset: the items in their order, widths defaulted to 12', async () => {
    expect(await ownPresets(operator)).toEqual([]);
    const [a, b, c] = cityKpis;
    const created = await createPreset(operator, { items: [{ kpi_id: a, width: 24 }, { kpi_id: b }, { kpi_id: c, width: 6 }] });
    expect(created.body.errors).toBeUndefined();
    const preset = created.body.data.create_kpi_preset;
    presetId = Number(preset.id);
    expect(preset).toMatchObject({ module: 'factory-dashboard', items: [{ kpi_id: a, width: 24 }, { kpi_id: b, width: 12 }, { kpi_id: c, width: 6 }] });
    const [listed] = await ownPresets(operator);
    expect(listed).toMatchObject({ id: presetId, module: 'factory-dashboard', items: preset.items, user_uuid: (await t.get('/user-me', operator)).body.id });
    expect((await readPreset(operator, presetId)).body.data.kpi_preset.items).toEqual(preset.items);
  });

  it('re-orders and re-sizes it: the answer and every read keep the new order', async () => {
    const [a, b, c] = cityKpis;
    const items = [{ kpi_id: c, width: 12 }, { kpi_id: a, width: 8 }, { kpi_id: b, width: 16 }];
    const updated = await updatePreset(operator, { id: presetId, items });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.update_kpi_preset.items).toEqual(items);
    expect((await ownPresets(operator))[0].items).toEqual(items);
    expect((await gql(operator, '{ kpi_preset_list { id items } }')).body.data.kpi_preset_list).toEqual([{ id: String(presetId), items }]);
  });

  it('a second preset for the same dashboard is a 409 naming the module; nothing more is kept', async () => {
    const again = await createPreset(operator, { items: [] });
    expect(again.status).toBe(409);
    expect(again.body.data).toBeNull();
    expect(firstError(again)).toEqual({ code: 'KPI_PRESET_EXISTS', field: 'module', message: 'You already keep a KPI preset for this dashboard. Change that one instead.' });
    expect(await ownPresets(operator)).toHaveLength(1);
  });

  it('another user of the same tenant neither sees, reads, changes nor deletes it', async () => {
    expect((await ownPresets(cityAdmin)).map((preset) => preset.id)).not.toContain(presetId);
    expect((await gql(cityAdmin, '{ kpi_preset_list { id } }')).body.data.kpi_preset_list.map((preset: { id: string }) => Number(preset.id))).not.toContain(presetId);
    expect(firstError(await readPreset(cityAdmin, presetId)).code).toBe('NOT_FOUND');
    const changed = await updatePreset(cityAdmin, { id: presetId, items: [] });
    expect(changed.status).toBe(404);
    expect((await deletePreset(cityAdmin, presetId)).status).toBe(404);
    expect((await ownPresets(operator))[0].items).toHaveLength(3);
  });

  it('the owner deletes it, and may then start a new one', async () => {
    expect((await deletePreset(operator, presetId)).body.data.delete_kpi_preset).toMatchObject({ id: String(presetId), deleted: true });
    expect(await ownPresets(operator)).toEqual([]);
    const fresh = await createPreset(operator, { items: [{ kpi_id: cityKpis[0] }] });
    expect(fresh.body.errors).toBeUndefined();
    presetId = Number(fresh.body.data.create_kpi_preset.id);
  });
});

describe('tenants', () => {
  it("tenant B neither sees tenant A's presets nor names tenant A's KPIs in its own (400 REFERENCE_NOT_FOUND, nothing written)", async () => {
    const cityPreset = (await ownPresets(operator))[0];
    expect((await ownPresets(facilityAdmin)).map((preset) => preset.id)).not.toContain(cityPreset.id);
    expect(firstError(await readPreset(facilityAdmin, cityPreset.id)).code).toBe('NOT_FOUND');
    expect((await updatePreset(facilityAdmin, { id: cityPreset.id, items: [] })).status).toBe(404);

    const [own] = await ownPresets(facilityAdmin);
    const foreign = cityKpis[0];
    for (const write of [
      () => updatePreset(facilityAdmin, { id: own.id, items: [{ kpi_id: facilityKpis[0] }, { kpi_id: foreign, width: 6 }] }),
      () => createPreset(facilityAdmin, { module: 'performance-dashboard', items: [{ kpi_id: foreign }] }),
    ]) {
      const refused = await write();
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeNull();
      const field = firstError(refused).field as string;
      expect(firstError(refused)).toEqual({ code: 'REFERENCE_NOT_FOUND', field, message: `${field}: ${foreign} does not exist` });
      expect(field).toMatch(/^items\.[01]\.kpi_id$/);
    }
    expect(await ownPresets(facilityAdmin)).toEqual([own]);
  });
});

describe('a deleted KPI', () => {
  it('vanishes from every preset of its tenant, the other items keeping their order and widths', async () => {
    const created = await gql(cityAdmin, kpis.create({ name: { en: 'Short-lived' }, query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line' } }),
      { name: { en: 'Short-lived' }, query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line' } });
    const doomed = Number(created.body.data.create_kpi.id);
    const [a, b] = cityKpis;
    const [operatorPreset] = await ownPresets(operator);
    await updatePreset(operator, { id: operatorPreset.id, items: [{ kpi_id: a, width: 24 }, { kpi_id: doomed, width: 6 }, { kpi_id: b, width: 8 }] });
    const adminPreset = (await createPreset(cityAdmin, { module: 'performance-dashboard', items: [{ kpi_id: doomed, width: 24 }] })).body.data.create_kpi_preset;
    const facilityBefore = await ownPresets(facilityAdmin);

    expect((await gql(cityAdmin, kpis.delete({ id: doomed }), { id: doomed })).body.data.delete_kpi.deleted).toBe(true);

    expect((await ownPresets(operator))[0].items).toEqual([{ kpi_id: a, width: 24 }, { kpi_id: b, width: 8 }]);
    expect((await readPreset(operator, operatorPreset.id)).body.data.kpi_preset.items).toEqual([{ kpi_id: a, width: 24 }, { kpi_id: b, width: 8 }]);
    expect((await readPreset(cityAdmin, adminPreset.id)).body.data.kpi_preset.items).toEqual([]);
    expect(await ownPresets(facilityAdmin)).toEqual(facilityBefore);
    // and it cannot come back by name
    const stale = await updatePreset(operator, { id: operatorPreset.id, items: [{ kpi_id: doomed }] });
    expect(firstError(stale)).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'items.0.kpi_id' });
    await deletePreset(cityAdmin, adminPreset.id);
  });
});

describe('a deleted KPI, live', () => {
  type PresetItem = { kpi_id: number; width: number };
  interface PresetChange { resource: string; action: string; id: string; record: { user_uuid: string; items: PresetItem[] } }
  interface Listener { received: PresetChange[] }

  /** A user's subscription to KPI preset changes, as an open dashboard keeps it (closed when the test ends). */
  const listen = (url: string, token: string): Listener => {
    const received: PresetChange[] = [];
    const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0 });
    client.subscribe({ query: 'subscription { resource_changed(resource: "kpi_preset") { resource action id record } }' }, {
      next: (value) => received.push((value.data?.resource_changed ?? value.errors) as PresetChange), error: (error) => received.push(error as PresetChange), complete: () => {},
    });
    onTestFinished(() => client.dispose());
    return { received };
  };
  /**
   * Writes the user's own preset until their subscription hears that write: then the subscription
   * is live, and every event published to it before the write has reached it (one connection
   * keeps its order).
   */
  const hearOwnWrite = async (listener: Listener, token: string, id: number, items: PresetItem[]) => {
    const from = listener.received.length;
    await expect.poll(async () => {
      if (listener.received.slice(from).some((change) => isDeepStrictEqual(change.record?.items, items))) return true;
      expect((await updatePreset(token, { id, items })).body.errors).toBeUndefined();
      return false;
    }, { timeout: 5000, interval: 100 }).toBe(true);
  };

  it('each user whose preset listed it hears their own preset updated without it; nobody hears another user\'s, nor another tenant', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
    const input = { name: { en: 'Watched going' }, query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line' } };
    const doomed = Number((await gql(cityAdmin, kpis.create(input), input)).body.data.create_kpi.id);
    const [a] = cityKpis;
    const [operatorPreset] = await ownPresets(operator);
    const adminPreset = (await ownPresets(cityAdmin)).find((preset) => preset.module === 'factory-dashboard')!;
    const [facilityPreset] = await ownPresets(facilityAdmin);
    const operatorId = (await t.get('/user-me', operator)).body.id;
    const adminId = (await t.get('/user-me', cityAdmin)).body.id;

    const operatorLive = listen(url, operator);
    const adminLive = listen(url, cityAdmin);
    const facilityLive = listen(url, facilityAdmin);
    const operatorItems = [{ kpi_id: a, width: 24 }, { kpi_id: doomed, width: 6 }];
    const adminItems = [{ kpi_id: doomed, width: 8 }, ...adminPreset.items];
    await hearOwnWrite(operatorLive, operator, operatorPreset.id, operatorItems);
    await hearOwnWrite(adminLive, cityAdmin, adminPreset.id, adminItems);
    await hearOwnWrite(facilityLive, facilityAdmin, facilityPreset.id, facilityPreset.items);
    const [operatorFrom, adminFrom, facilityFrom] = [operatorLive, adminLive, facilityLive].map((listener) => listener.received.length);

    expect((await gql(cityAdmin, kpis.delete({ id: doomed }), { id: doomed })).body.data.delete_kpi.deleted).toBe(true);

    const withoutDoomed = (listener: Listener, from: number) =>
      listener.received.slice(from).find((change) => !change.record.items.some((item) => item.kpi_id === doomed));
    await expect.poll(() => withoutDoomed(operatorLive, operatorFrom), { timeout: 5000 }).toBeDefined();
    await expect.poll(() => withoutDoomed(adminLive, adminFrom), { timeout: 5000 }).toBeDefined();
    expect(withoutDoomed(operatorLive, operatorFrom)).toEqual({
      resource: 'kpi_preset', action: 'updated', id: String(operatorPreset.id),
      record: expect.objectContaining({ user_uuid: operatorId, module: 'factory-dashboard', items: [{ kpi_id: a, width: 24 }] }),
    });
    expect(withoutDoomed(adminLive, adminFrom)).toEqual({
      resource: 'kpi_preset', action: 'updated', id: String(adminPreset.id),
      record: expect.objectContaining({ user_uuid: adminId, items: adminPreset.items }),
    });
    // a last write of each user's own: whatever else the delete sent them has arrived before it
    await hearOwnWrite(operatorLive, operator, operatorPreset.id, [{ kpi_id: a, width: 12 }]);
    await hearOwnWrite(adminLive, cityAdmin, adminPreset.id, adminPreset.items);
    await hearOwnWrite(facilityLive, facilityAdmin, facilityPreset.id, facilityPreset.items);
    const idsHeard = (listener: Listener, from: number) => [...new Set(listener.received.slice(from).map((change) => change.id))];
    expect(idsHeard(operatorLive, operatorFrom)).toEqual([String(operatorPreset.id)]);
    expect(idsHeard(adminLive, adminFrom)).toEqual([String(adminPreset.id)]);
    expect(idsHeard(facilityLive, facilityFrom)).toEqual([String(facilityPreset.id)]);
  });
});

describe('a KPI deleted while a preset names it', () => {
  // PostgreSQL runs the two transactions side by side (the embedded database takes one at a time)
  it('the preset write waits for the delete and is refused, instead of keeping an id that is gone', async (ctx) => {
    skipUnlessPostgres('two transactions side by side')(ctx);
    const input = { name: { en: 'Deleted meanwhile' }, query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line' } };
    const doomed = Number((await gql(cityAdmin, kpis.create(input), input)).body.data.create_kpi.id);
    const [preset] = await ownPresets(operator);
    const tenantId = (await t.db.systemQuery<{ id: string }>(sql`SELECT tenant_id AS id FROM users WHERE email = 'operator@demo.city'`))[0].id;

    // the KPI's delete, as the engine runs it, held open before its commit
    let commit!: () => void;
    let deleted!: () => void;
    const whenDeleted = new Promise<void>((resolve) => { deleted = resolve; });
    const deleting = t.db.systemTx(async (tx) => {
      await tx.delete(kpiTable).where(eq(kpiTable.id, doomed));
      await dropKpiFromPresets(tx, tenantId, doomed, modelOf('kpi_preset').storage.selection);
      deleted();
      await new Promise<void>((resolve) => { commit = resolve; });
    });
    await whenDeleted;
    const writing = updatePreset(operator, { id: preset.id, items: [{ kpi_id: cityKpis[0] }, { kpi_id: doomed }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await deleting;

    const refused = await writing;
    expect(firstError(refused)).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'items.1.kpi_id' });
    expect((await ownPresets(operator))[0].items).toEqual(preset.items);
  });
});

describe('bad input is a 400 naming the field, and nothing is written', () => {
  const item = (kpiId: unknown, width?: unknown) => ({ kpi_id: kpiId, ...(width === undefined ? {} : { width }) });
  it.each([
    ['51 items', () => ({ items: Array.from({ length: 51 }, (_v, index) => item(index + 1)) }), 'items', 'VALIDATION'],
    ['width 25', () => ({ items: [item(cityKpis[0], 25)] }), 'items.0.width', 'NUMBER_MAX'],
    ['width 0', () => ({ items: [item(cityKpis[0], 0)] }), 'items.0.width', 'NUMBER_MIN'],
    ['a fractional width', () => ({ items: [item(cityKpis[0], 6.5)] }), 'items.0.width', 'VALIDATION'],
    ['kpi_id 0', () => ({ items: [item(0)] }), 'items.0.kpi_id', 'NUMBER_MIN'],
    ['kpi_id beyond an id', () => ({ items: [item(2 ** 31)] }), 'items.0.kpi_id', 'NUMBER_MAX'],
    ['kpi_id as a string', () => ({ items: [item('seven')] }), 'items.0.kpi_id', 'VALIDATION'],
    ['an item without kpi_id', () => ({ items: [{ width: 12 }] }), 'items.0.kpi_id', 'VALIDATION'],
    ['an item with another field', () => ({ items: [{ kpi_id: cityKpis[0], colour: 'red' }] }), 'items.0.colour', 'VALIDATION'],
    // (a lone value stands for a list of one, as everywhere: its item is not an object)
    ['items as a string', () => ({ items: 'all of them' }), 'items.0', 'VALIDATION'],
    ['a module that is not a dashboard', () => ({ module: 'logs' }), 'module', 'VALIDATION'],
    ['the same KPI twice', () => ({ items: [item(cityKpis[0], 24), item(cityKpis[1]), item(cityKpis[0], 6)] }), 'items.2.kpi_id', 'KPI_PRESET_DUPLICATE'],
  ])('%s', async (_label, input, field, code) => {
    const [own] = await ownPresets(operator);
    const refused = await updatePreset(operator, { id: own.id, ...input() });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    const error = firstError(refused);
    expect(error.code).toBe(code);
    expect(String(error.field).replace(/^input\./, '')).toBe(field);
    expect(JSON.stringify(refused.body)).not.toMatch(/kpi_presets|SELECT|at .*\.ts/);
    expect(await ownPresets(operator)).toEqual([own]);
  });

  it('a user without the dashboard module may not keep one: 403 FORBIDDEN before the input is read', async () => {
    await t.db.systemQuery(sql`INSERT INTO users (tenant_id, email, username, password_hash, modules)
      SELECT tenant_id, 'logs@demo.city', 'Log reader', password_hash, ARRAY['logs'] FROM users WHERE email = 'operator@demo.city'`);
    const reader = (await t.login('logs@demo.city')).access_token;
    expect((await t.get('/kpi-preset-list', reader)).status).toBe(403);
    const refused = await createPreset(reader, { items: [{ kpi_id: 0 }] });
    expect(refused.status).toBe(403);
    expect(firstError(refused).code).toBe('FORBIDDEN');
  });
});
