// A device's access token chosen by its owner (firmware provisioned elsewhere comes with one): a
// token some device already has — in the caller's tenant or in another — gets one and the same
// 409 answer on every write path (create, update, device import), never a 500 that would tell
// another tenant's tokens apart; a fresh one is taken and works; a guessable one is refused.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let city: string;
let facility: string;
let cityLampType: number;
let facilityLampType: number;
/** A token a Demo City device has. */
const TAKEN = 'tb-firmware-token-0001';

beforeAll(async () => {
  t = await startTestApp();
  city = (await t.login('admin@demo.city')).access_token;
  facility = (await t.login('admin@demo.facility')).access_token;
  const lampTypeOf = async (token: string) => (await t.get('/entity-type-list', token)).body.find((type: any) => type.name === 'Street lamp').id;
  [cityLampType, facilityLampType] = [await lampTypeOf(city), await lampTypeOf(facility)];
  const created = await createDevice(city, cityLampType, 'Provisioned lamp', TAKEN);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
});
afterAll(async () => { await t?.close(); });

const gql = (token: string, query: string, variables: Record<string, unknown>) => t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
const createDevice = (token: string, type: number, name: string, accessToken: string) =>
  gql(token, 'mutation ($type: Int!, $name: JSON!, $token: String) { create_entity(entity_type_id: $type, name: $name, access_token: $token) { id access_token } }',
    { type, name: { en: name }, token: accessToken });
const setToken = (token: string, id: number | string, accessToken: string) =>
  gql(token, 'mutation ($id: ID!, $token: String) { update_entity(id: $id, access_token: $token) { id access_token } }', { id, token: accessToken });
const credentials = async (token: string, id: number | string) =>
  (await gql(token, 'query ($id: ID!) { entity_credentials(id: $id) { credentialsId } }', { id })).body.data.entity_credentials.credentialsId as string;
const importDevices = (token: string, type: number, tokens: string[]) =>
  gql(token, 'mutation ($entities: [JSON!]!) { import_entities(entities: $entities) { rows created refused { row field message } } }',
    { entities: tokens.map((accessToken, index) => ({ entity_type_id: type, name: { en: `Imported lamp ${index + 1}` }, access_token: accessToken })) });
const ownDevice = async (token: string) => (await t.get('/entity-list?search=Street%20lamp', token)).body[0].id as string;
const entitiesSnapshot = async () =>
  (await t.db.systemQuery<{ rows: string }>(sql`SELECT count(*) || ':' || md5(string_agg(e::text, ',' ORDER BY e.id)) AS rows FROM entities e`))[0].rows;

/** What a client sees of an answer (headers differ by request id). */
const seen = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const TAKEN_ANSWER = {
  status: 409,
  error: { message: 'This access token is already in use. Choose another one.', extensions: { code: 'ACCESS_TOKEN_TAKEN', field: 'access_token' } },
};

describe('a token some device already has', () => {
  it('create_entity: the same 409 whether the token is another tenant\'s or the caller\'s own, and nothing is created', async () => {
    const before = await entitiesSnapshot();
    const byOtherTenant = await createDevice(facility, facilityLampType, 'Copied lamp', TAKEN);
    const byOwnTenant = await createDevice(city, cityLampType, 'Copied lamp', TAKEN);
    expect(byOtherTenant.status).toBe(TAKEN_ANSWER.status);
    expect(byOtherTenant.body).toEqual({ data: null, errors: [expect.objectContaining(TAKEN_ANSWER.error)] });
    expect(seen(byOwnTenant)).toEqual(seen(byOtherTenant));
    expect(await entitiesSnapshot()).toBe(before);
  });

  it('update_entity: the same 409, and the device keeps its own token', async () => {
    const [facilityDevice, cityDevice] = [await ownDevice(facility), await ownDevice(city)];
    const [facilityToken, cityToken] = [await credentials(facility, facilityDevice), await credentials(city, cityDevice)];
    const before = await entitiesSnapshot();
    const byOtherTenant = await setToken(facility, facilityDevice, TAKEN);
    const byOwnTenant = await setToken(city, cityDevice, TAKEN);
    expect(byOtherTenant.status).toBe(TAKEN_ANSWER.status);
    expect(byOtherTenant.body).toEqual({ data: null, errors: [expect.objectContaining(TAKEN_ANSWER.error)] });
    expect(seen(byOwnTenant)).toEqual(seen(byOtherTenant));
    expect(await entitiesSnapshot()).toBe(before);
    expect([await credentials(facility, facilityDevice), await credentials(city, cityDevice)]).toEqual([facilityToken, cityToken]);
  });

  it('import_entities: the row is refused the same way, and none of the file is created', async () => {
    const before = await entitiesSnapshot();
    const byOtherTenant = await importDevices(facility, facilityLampType, ['fresh-import-token-0001', TAKEN]);
    const byOwnTenant = await importDevices(city, cityLampType, ['fresh-import-token-0001', TAKEN]);
    expect(byOtherTenant.status).toBe(200);
    expect(byOtherTenant.body.data.import_entities).toEqual({ rows: 2, created: 0, refused: [{ row: 2, field: 'access_token', message: TAKEN_ANSWER.error.message }] });
    expect(seen(byOwnTenant)).toEqual(seen(byOtherTenant));
    const twiceInOneFile = await importDevices(facility, facilityLampType, ['fresh-import-token-0002', 'fresh-import-token-0002']);
    expect(twiceInOneFile.body.data.import_entities).toEqual({ rows: 2, created: 0, refused: [{ row: 2, field: 'access_token', message: TAKEN_ANSWER.error.message }] });
    expect(await entitiesSnapshot()).toBe(before);
  });
});

describe('a token nobody has', () => {
  it('is taken, and the device sends telemetry with it', async () => {
    const created = await createDevice(facility, facilityLampType, 'Migrated lamp', 'Migrated_lamp-token-7Qx2');
    expect(created.status).toBe(200);
    expect(created.body.data.create_entity.access_token).toBe('Migrated_lamp-token-7Qx2');
    const sent = await t.send({ method: 'POST', path: '/api/v1/Migrated_lamp-token-7Qx2/telemetry', body: { power: 12 }, headers: { 'content-type': 'application/json' } });
    expect(sent.status).toBe(200);
    const moved = await setToken(facility, created.body.data.create_entity.id, 'Migrated_lamp-token-7Qx3');
    expect(moved.body.data.update_entity.access_token).toBe('Migrated_lamp-token-7Qx3');
  });

  it('rotated by the server: 32 random hex characters', async () => {
    const device = await ownDevice(facility);
    const rotated = await gql(facility, 'mutation ($id: ID!) { rotate_entity_credentials(id: $id) { credentialsId } }', { id: device });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.rotate_entity_credentials.credentialsId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('a guessable token', () => {
  it('is refused: at least 20 characters of letters, digits, - and _', async () => {
    const short = await createDevice(facility, facilityLampType, 'Weak lamp', 'lamp-token-123');
    expect(short.status).toBe(400);
    expect(short.body.errors[0].extensions).toMatchObject({ code: 'ACCESS_TOKEN_TOO_SHORT', field: 'access_token', params: { limit: 20 } });
    const spaced = await createDevice(facility, facilityLampType, 'Weak lamp', 'lamp token with spaces 123');
    expect(spaced.status).toBe(400);
    expect(spaced.body.errors[0].extensions).toMatchObject({ code: 'ACCESS_TOKEN_CHARACTERS', field: 'access_token' });
    expect((await t.get('/entity-list?search=Weak%20lamp', facility)).body).toEqual([]);
  });

  it('chosen under the earlier rule, it keeps working and does not block editing the device', async () => {
    const device = await ownDevice(facility);
    await t.db.systemQuery(sql`UPDATE entities SET access_token = 'legacy-123' WHERE id = ${Number(device)}`);
    const renamed = await gql(facility, 'mutation ($id: ID!) { update_entity(id: $id, name: {en: "Renamed lamp"}) { id name } }', { id: device });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await credentials(facility, device)).toBe('legacy-123');
  });
});
