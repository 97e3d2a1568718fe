// A region's floor-plan image: uploaded as raw bytes (PNG, JPEG or WebP by their signature, at
// most 5 MB), read back by anyone of the tenant, changed only with the studio; placed by the
// region's attributes.overlay, which the entity schema validates. Hostile callers: another
// tenant, the operator, no token, a script-carrying SVG, a huge body, bad ids.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAY_IMAGE_MAX_BYTES } from '../../src/schemas/overlay.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let region: number;
let lamp: number;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const image = (method: 'PUT' | 'GET' | 'DELETE', id: number | string, token?: string, body?: Buffer, type = 'image/png') =>
  t.app.inject({
    method, url: `/entity/${id}/overlay-image`, payload: body,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': type } : {}) },
  });

const gql = async (token: string, query: string, variables?: Record<string, unknown>) =>
  t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
const setAttributes = (id: number, attributes: unknown) =>
  gql(admin, 'mutation($id: ID!, $attributes: JSON) { update_entity(id: $id, attributes: $attributes) { id attributes } }', { id, attributes });

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  const types = (await t.get('/entity-type-list', admin)).body as any[];
  const regionType = types.find((type) => type.attributes?.system_name === 'region').id;
  const entities = (await t.get('/entity-list', admin)).body as any[];
  region = entities.find((entity) => entity.entity_type_id === regionType).id;
  lamp = entities.find((entity) => entity.entity_type_id !== regionType && entity.geom?.type === 'Point').id;
});
afterAll(async () => { await t?.close(); });

const storedCount = async () => (await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM entity_images`))[0].count;

describe('the overlay image', () => {
  it('is stored from its bytes, read back as it was, replaced by the next upload, and logged', async () => {
    const put = await image('PUT', region, admin, PNG);
    expect(put.statusCode).toBe(200);
    const answer = put.json();
    expect(answer).toMatchObject({ content_type: 'image/png', size: PNG.length });
    expect(answer.url).toMatch(new RegExp(`^/entity/${region}/overlay-image\\?v=\\d+$`));
    const got = await image('GET', region, admin);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);

    // the declared type does not matter: the bytes say JPEG
    const replaced = await image('PUT', region, admin, JPEG, 'application/octet-stream');
    expect(replaced.json()).toMatchObject({ content_type: 'image/jpeg' });
    expect(replaced.json().url).not.toBe(answer.url);
    expect((await image('GET', region, operator)).rawPayload.equals(JPEG)).toBe(true); // the operator reads it
    const logs = await t.db.systemQuery<{ message: string }>(sql`SELECT message FROM logs WHERE entity_id = ${region} AND message LIKE 'Image overlay%'`);
    expect(logs.map((log) => log.message)).toEqual(['Image overlay uploaded', 'Image overlay uploaded']);
  });

  it('refuses what is not a PNG, JPEG or WebP (an SVG with a script, text, nothing) and a body over 5 MB, storing nothing', async () => {
    await image('DELETE', region, admin);
    for (const [body, type] of [[SVG, 'image/png'], [SVG, 'image/svg+xml'], [Buffer.from('hello'), 'image/png'], [Buffer.alloc(0), 'image/png']] as const) {
      const refused = await image('PUT', region, admin, body, type);
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json()).toEqual({ errors: [{ code: 'OVERLAY_IMAGE_TYPE', message: 'The image overlay must be a PNG, JPEG or WebP image.' }] });
    }
    const huge = Buffer.concat([PNG, Buffer.alloc(OVERLAY_IMAGE_MAX_BYTES)]);
    const tooBig = await image('PUT', region, admin, huge);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().errors[0]).toMatchObject({ code: 'OVERLAY_IMAGE_SIZE', message: 'The image overlay must be 5 MB or smaller.' });
    expect(await storedCount()).toBe(0);
  });

  it('belongs to a region only; another tenant, the operator and a caller without a token cannot touch it', async () => {
    const notRegion = await image('PUT', lamp, admin, PNG);
    expect(notRegion.statusCode).toBe(400);
    expect(notRegion.json().errors[0]).toMatchObject({ code: 'OVERLAY_NOT_A_REGION', message: 'Only a region can have an image overlay.' });

    expect((await image('PUT', region, admin, PNG)).statusCode).toBe(200);
    expect((await image('PUT', region, operator, JPEG)).statusCode).toBe(403);
    expect((await image('DELETE', region, operator)).statusCode).toBe(403);
    for (const method of ['GET', 'DELETE'] as const) {
      const other = await image(method, region, facility);
      expect(other.statusCode, method).toBe(404);
      expect(other.body).not.toMatch(/SELECT|stack|\.ts:/);
    }
    expect((await image('PUT', region, facility, JPEG)).statusCode).toBe(404);
    expect((await image('GET', region)).statusCode).toBe(401);
    expect((await image('PUT', region, undefined, JPEG)).statusCode).toBe(401);
    expect((await image('GET', region, admin)).rawPayload.equals(PNG)).toBe(true); // untouched by all of them

    for (const id of ['abc', '0', '99999999999']) expect((await image('GET', id, admin)).statusCode, id).toBe(400);
    expect((await image('GET', 2_000_000, admin)).statusCode).toBe(404);
  });

  it('is removed on request and with its region', async () => {
    expect((await image('PUT', region, admin, PNG)).statusCode).toBe(200);
    expect((await image('DELETE', region, admin)).json()).toEqual({ deleted: true });
    expect((await image('GET', region, admin)).statusCode).toBe(404);
    expect((await image('DELETE', region, admin)).json()).toEqual({ deleted: false });

    const created = await gql(admin, 'mutation($type: Int!) { create_entity(entity_type_id: $type, name: { en: "Plan region" }) { id } }',
      { type: (await t.get(`/entity/${region}`, admin)).body.entity_type_id });
    const id = Number(created.body.data.create_entity.id);
    expect((await image('PUT', id, admin, PNG)).statusCode).toBe(200);
    expect((await gql(admin, 'mutation($id: ID!) { delete_entity(id: $id) { deleted } }', { id })).body.data.delete_entity.deleted).toBe(true);
    expect(await storedCount()).toBe(0);
  });
});

describe('the region attributes the map reads', () => {
  const corners = [[17.1, 48.15], [17.11, 48.15], [17.11, 48.14], [17.1, 48.14]];
  const overlay = { url: `/entity/1/overlay-image?v=123`, coordinates: corners, scale: 1.5, locked: true };

  it('keeps a placed overlay, a colour and a size', async () => {
    const answer = await setAttributes(region, { color: '#123abc', size: 800, overlay: { ...overlay, url: `/entity/${region}/overlay-image?v=1` } });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.update_entity.attributes).toMatchObject({ color: '#123abc', size: 800, overlay: { scale: 1.5, locked: true, coordinates: corners } });
  });

  it('refuses a bad colour, size or placement with a message naming the field, and keeps what was stored', async () => {
    const before = (await t.get(`/entity/${region}`, admin)).body.attributes;
    const refused = async (attributes: unknown) => {
      const answer = await setAttributes(region, attributes);
      expect(answer.body.data ?? null, JSON.stringify(attributes)).toBeNull();
      return answer.body.errors[0];
    };
    expect((await refused({ color: 'red' })).extensions.code).toBe('COLOUR_INVALID');
    expect((await refused({ size: 0 })).message).toBe('The size field must be 1 or more');
    expect((await refused({ overlay: { ...overlay, url: 'https://tracker.example/x.png' } })).message).toMatch(/attributes\.overlay\.url/);
    expect((await refused({ overlay: { ...overlay, coordinates: corners.slice(0, 3) } })).message).toMatch(/attributes\.overlay\.coordinates/);
    expect((await refused({ overlay: { ...overlay, coordinates: [[17.1, 89], ...corners.slice(1)] } })).message)
      .toBe('attributes.overlay.coordinates[0] latitude must be within ±85.0511');
    expect((await refused({ overlay: { ...overlay, scale: 0 } })).message).toBe('The scale field must be 0.1 or more');
    expect((await refused({ overlay: { ...overlay, extra: 1 } })).message).toMatch(/extra/);
    expect((await t.get(`/entity/${region}`, admin)).body.attributes).toEqual(before);
  });
});
