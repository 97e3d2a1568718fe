// GET /map-config: the configured base map for any signed-in user, 401 without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseMapFrom } from '../../server/config.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp();
  operator = (await t.login('operator@demo.city')).access_token;
});
afterAll(async () => { await t?.close(); });

describe('GET /map-config', () => {
  it('answers the offline map by default, to any user of any tenant', async () => {
    const { status, body } = await t.get('/map-config', operator);
    expect({ status, body }).toEqual({ status: 200, body: { base_map: { kind: 'offline' } } });
    const facility = (await t.login('admin@demo.facility')).access_token;
    expect((await t.get('/map-config', facility)).body).toEqual({ base_map: { kind: 'offline' } });
  });

  it.each([
    ['openfreemap', { kind: 'openfreemap', url: 'https://tiles.openfreemap.org/styles/liberty' }],
    ['pmtiles://https://cdn.example.org/city.pmtiles', { kind: 'pmtiles', url: 'https://cdn.example.org/city.pmtiles' }],
    ['maptiler:Ab12Cd34Ef56Gh78Ij90', { kind: 'maptiler', url: 'https://api.maptiler.com/maps/streets-v2/style.json', key: 'Ab12Cd34Ef56Gh78Ij90' }],
    ['google:AIzaSyA1b2C3d4E5f6G7h8I9j0K-_lMnOpQrStU', { kind: 'google', url: 'https://tile.googleapis.com', key: 'AIzaSyA1b2C3d4E5f6G7h8I9j0K-_lMnOpQrStU' }],
    ['https://maps.example.com/style.json', { kind: 'style', url: 'https://maps.example.com/style.json' }],
  ])('answers MAP_STYLE=%s as configured', async (mapStyle, baseMap) => {
    const configured = await startTestApp({ db: t.db, baseMap: baseMapFrom(mapStyle) });
    try {
      const token = (await configured.login('admin@demo.city')).access_token;
      const { status, body } = await configured.get('/map-config', token);
      expect({ status, body }).toEqual({ status: 200, body: { base_map: baseMap } });
    } finally {
      await configured.close();
    }
  });

  it('refuses a caller without a valid token, without internals', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const answer = await t.send({ path: '/map-config', token });
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]?.code).toMatch(/^JWT/);
      expect(JSON.stringify(answer.body)).not.toMatch(/kind|stack|\.ts:/);
    }
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await t.send({ path: '/api/docs/json' })).body;
    const read = document.paths['/map-config'].get;
    expect(read.security).toEqual([{ bearer: [] }]);
    expect(read.responses['200'].content['application/json'].schema.properties.base_map.properties.kind.enum)
      .toEqual(['offline', 'openfreemap', 'pmtiles', 'maptiler', 'google', 'style']);
  });
});
