// The large-city seed (`npm run seed:city`, server/seed/citySeed.ts) as its users meet it, on a small
// city of 2,000 devices: admin@big.city signs in with demo1234 and sees the city's devices, 2 % of
// them with an open alarm, 5 % not connected and 1 % under maintenance; Demo City's admin sees none
// of it; seeding again adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITY_SHARES, CityExistsError, seedCity } from '../../server/seed/citySeed.ts';
import { startTestApp, type TestApp } from './harness.ts';

const DEVICES = 2_000;
const share = (percent: number) => (DEVICES * percent) / 100;
let t: TestApp;
let bigCity: string;
let demoCity: string;

/** Every row of GET /map-features (coloured by `attribute`), page by page: [id, type, level, parent, position, value, colour]. */
async function mapRows(token: string, attribute: string): Promise<unknown[][]> {
  const all: unknown[][] = [];
  for (let after: number | null = 0; after !== null;) {
    const { status, body } = await t.get(`/map-features?attribute=${attribute}&after=${after}`, token);
    expect(status).toBe(200);
    all.push(...body.rows);
    after = body.next;
  }
  return all;
}

beforeAll(async () => {
  t = await startTestApp();
  // chunks smaller than the city, so that more than one is written
  const result = await seedCity(t.db, { devices: DEVICES, chunkSize: 700 });
  expect(result).toMatchObject({ devices: DEVICES, alarms: share(CITY_SHARES.alarm) });
  bigCity = (await t.login('admin@big.city', 'demo1234')).access_token;
  demoCity = (await t.login('admin@demo.city')).access_token;
});
afterAll(async () => { await t?.close(); });

describe('npm run seed:city', () => {
  it('admin@big.city signs in to Big City and sees its devices, districts and zones', async () => {
    expect((await t.get('/tenant', bigCity)).body.name).toBe('Big City');
    const types = (await t.get('/entity-type-list', bigCity)).body as { id: number; category: string; name: string }[];
    const ofCategory = (categories: string[]) => types.filter((type) => categories.includes(type.category)).map((type) => type.id).join(',');
    const total = async (query: string) => Number((await t.send({ path: `/entity-list?per_page=1&${query}`, token: bigCity })).headers['x-total-count']);
    expect(await total(`types=${ofCategory(['lighting', 'environment', 'parking', 'energy'])}`)).toBe(DEVICES);
    expect(await total(`types=${ofCategory(['lighting'])}`)).toBe(share(80));
    expect(await total(`types=${ofCategory(['region'])}`)).toBe(12);
    expect(await total(`types=${ofCategory(['zone'])}`)).toBe(48);
    // a lamp as the map and the studio show it: under its zone and district, on a street of the city
    const [lamp] = (await t.get(`/entity-list?per_page=1&search=Street%20lamp%20100`, bigCity)).body;
    const detail = (await t.get(`/entity/${lamp.id}`, bigCity)).body;
    expect(detail.tree_path.split('.')).toHaveLength(3);
    expect(detail.tree_path.endsWith(`.${detail.parent_id}.${detail.id}`)).toBe(true);
    const [lng, lat] = detail.geom.coordinates;
    expect(lat).toBeGreaterThan(48.13);
    expect(lat).toBeLessThan(48.28);
    expect(lng).toBeGreaterThan(16.23);
    expect(lng).toBeLessThan(16.52);
  });

  it('2 % of the devices have an open alarm, 5 % are not connected, 1 % are under maintenance', async () => {
    const watcher = ((await t.get('/watcher-list', bigCity)).body as { name: string; alert: boolean; result: { alerting: number } }[])
      .find((row) => row.name === 'Device fault');
    expect(watcher).toMatchObject({ alert: true, result: { alerting: share(CITY_SHARES.alarm) } });
    const logs = await t.post('/graphql', { query: '{ log_list(source: "watcher", status: "new", per_page: 100) { meta { pagination { total } } data { type message entity_id } } }' }, bigCity);
    expect(logs.body.data?.log_list.meta.pagination.total, JSON.stringify(logs.body.errors)).toBe(share(CITY_SHARES.alarm));
    expect(logs.body.data.log_list.data[0]).toMatchObject({ type: 'error', message: expect.stringMatching(/: fault true == true \(Device fault\)$/) });

    const connected = await mapRows(bigCity, 'active');
    expect(connected.filter((row) => row[5] === false)).toHaveLength(share(CITY_SHARES.offline));

    const windows = (await t.get('/maintenance-window-list', bigCity)).body as { mode: string; active: boolean; covered_entity_ids: number[] }[];
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ mode: 'device-maintenance', active: true });
    expect(windows[0].covered_entity_ids).toHaveLength(share(CITY_SHARES.maintenance));
    // the three are different devices
    const alarmed = new Set((logs.body.data.log_list.data as { entity_id: number }[]).map((log) => log.entity_id));
    expect(windows[0].covered_entity_ids.some((id) => alarmed.has(id))).toBe(false);
  });

  it('Demo City\'s admin sees nothing of Big City', async () => {
    const bigIds = new Set((await mapRows(bigCity, 'active')).map((row) => row[0] as number));
    expect((await mapRows(demoCity, 'active')).some((row) => bigIds.has(row[0] as number))).toBe(false);
    const [someId] = bigIds;
    expect((await t.get(`/entity/${someId}`, demoCity)).status).toBe(404);
    expect((await t.get('/entity-list?search=Street%20lamp%201000', demoCity)).body).toEqual([]);
    expect(((await t.get('/watcher-list', demoCity)).body as { name: string }[]).map((row) => row.name)).not.toContain('Device fault');
    expect(((await t.get('/maintenance-window-list', demoCity)).body as unknown[])).toEqual([]);
    expect((await t.get('/tenant', demoCity)).body.name).toBe('Demo City');
  });

  it('seeding again adds nothing and says why', async () => {
    await expect(seedCity(t.db, { devices: 10 })).rejects.toThrow(CityExistsError);
    await expect(seedCity(t.db, { devices: 10 })).rejects.toThrow(/Big City exists already.*nothing was added/);
    const { headers } = await t.send({ path: '/entity-list?per_page=1&search=Street%20lamp', token: bigCity });
    expect(Number(headers['x-total-count'])).toBe(share(80));
  });
});
