// The engine end to end with a model it has never seen (tests/support/gadgetModel.ts, every
// widget): registered with one call, it gets REST doors validated by its schema, tenant scope and
// its list — nothing else was written for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities, entityTypes } from '../../server/db/schema.ts';
import { registerModel } from '../../server/resources/registry.ts';
import { gadgetSchema, gadgets, gadgetsDdl } from '../support/gadgetModel.ts';
import { violations, withValue } from '../support/schemaSamples.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
// removed again after the file: the files that run next in this worker build apps without it
const unregister = registerModel(gadgetSchema, { table: gadgets, references: { entity_ids: entities, entity_type_ids: entityTypes } });

beforeAll(async () => {
  t = await startTestApp();
  await t.db.systemQuery(await gadgetsDdl());
  token = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => {
  await t?.close();
  unregister();
});

const valid = {
  name: 'Gadget one', title: { en: 'First', sk: 'Prvý' }, notes: 'Line one\nLine two', size: 3, mode: 'advanced', expert_setting: 'turbo',
  enabled: false, color: '#123abc', starts_at: '2030-01-01T06:00:00.000Z', day: '2030-01-01', at: '06:30', schedule: '*/15 * * * 1-5',
  entity_ids: [], entity_type_ids: [], settings: { label: 'Inner', level: 50 }, steps: [{ label: 'Warm up', level: 10 }], status: 'inactive',
};

describe('a registered throw-away model', () => {
  it('is created, listed and read back with every field', async () => {
    const created = await t.post('/create-gadget', { input: valid }, token);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject(valid);
    const list = await t.get('/gadget-list?mode=advanced', token);
    expect(list.body.map((gadget: any) => gadget.name)).toEqual(['Gadget one']);
    expect((await t.get('/gadget-list', (await t.login('admin@demo.facility')).access_token)).body).toEqual([]);
  });

  it('applies its if/then rule on the server', async () => {
    const { expert_setting: _omitted, ...withoutSetting } = valid;
    const refused = await t.post('/create-gadget', { input: withoutSetting }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('input.expert_setting');
  });

  it.each(violations(gadgetSchema).map((violation) => [`${violation.path.join('.')} (${violation.constraint})`, violation] as const))('refuses %s with its message', async (_label, violation) => {
    const { status, body } = await t.post('/create-gadget', { input: withValue(valid, violation.path, violation.value) }, token);
    expect(status).toBe(400);
    expect(body.errors[0].field.startsWith(`input.${violation.path.join('.')}`)).toBe(true);
    if (violation.constraint !== 'maximum' && violation.constraint !== 'minimum') return;
    expect(body.errors[0].message).toMatch(violation.message);
  });
});
