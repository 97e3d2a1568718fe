// Files of boards' image and video components: uploaded as raw bytes (PNG, JPEG, WebP, MP4, WebM
// by their signature), read back by their uploader and by whoever sees a board showing them — an
// API user too, on a public-API board shared with it — and by no one else: not another user of
// the tenant, not another tenant, not after the share is revoked. Hostile callers: no token, the
// operator (no edit permission), an API token uploading, script-carrying files, huge bodies, bad
// ids, a tenant at its quota.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_IMAGE_MAX_BYTES, BOARD_MEDIA_TENANT_MAX_BYTES, BOARD_VIDEO_MAX_BYTES } from '../../src/schemas/boardMedia.ts';
import { addCityUser } from '../support/boardCallers.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let viewer: string;
let stranger: string;
let viewerId: string;
let board: { id: number; resource_uuid: string };
const apiUser = { shared: { id: '', token: '' }, unshared: { id: '', token: '' } };

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const WEBM = Buffer.concat([Buffer.from('1a45dfa39f4282847765626d', 'hex'), Buffer.alloc(64, 7)]);
const MP4 = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.alloc(64, 3)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
/** HTML with `ftyp` at bytes 4-7, where an MP4 has its first box's type. */
const HTML_AS_MP4 = Buffer.from('<!--ftyp--><html><script>alert(document.cookie)</script></html>');

const upload = (token: string | undefined, body: Buffer, type = 'image/png') => t.app.inject({
  method: 'POST', url: '/board-media', payload: body,
  headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': type },
});
const read = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

const gql = async (token: string, query: string, variables?: Record<string, unknown>) => {
  const answer = await t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
  expect(answer.body.errors, query).toBeUndefined();
  return answer.body.data;
};
const addComponent = async (boardId: number, type: string, url: string, kind = '') =>
  (await gql(admin, `mutation($b: [Int!], $d: JSON) { ${kind}create_component(name: "File", type: "${type}", definition: $d, board_ids: $b) { id } }`,
    { b: [boardId], d: { url } }))[`${kind}create_component`].id as number;
const share = async (boardUuid: string, requester: string, kind = '') =>
  (await gql(admin, `mutation($r: String, $q: String) { ${kind}share_board(resource: $r, requester: $q, scopeName: "view") { id } }`, { r: boardUuid, q: requester }))[`${kind}share_board`].id as number;
const storedCount = async () => (await t.db.systemQuery<{ count: number }>(sql`SELECT count(*)::int AS count FROM board_media`))[0].count;

beforeAll(async () => {
  t = await startTestApp();
  viewerId = await addCityUser(t, 'viewer@demo.city');
  await addCityUser(t, 'stranger@demo.city');
  [admin, operator, facility, viewer, stranger] = await Promise.all(
    ['admin@demo.city', 'operator@demo.city', 'admin@demo.facility', 'viewer@demo.city', 'stranger@demo.city'].map(async (email) => (await t.login(email)).access_token),
  );
  board = (await gql(admin, 'mutation { create_board(name: { en: "Files" }) { id resource_uuid } }')).create_board;
  for (const [key, username] of [['shared', 'media.bot'], ['unshared', 'other.bot']] as const) {
    const made = await t.post('/api/users', { username, password: 'long-secret-pass-1', permissions: ['public-api.board.*'] }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    apiUser[key] = { id: made.body.id, token: made.body.access_token };
  }
});
afterAll(async () => { await t?.close(); });

describe('board files', () => {
  it('are stored from their bytes and read by their uploader, and by a user once a board shared with them shows the file, until the share is revoked', async () => {
    const stored = await upload(admin, PNG);
    expect(stored.statusCode, stored.body).toBe(200);
    const file = stored.json();
    expect(file).toEqual({ url: expect.stringMatching(/^\/board-media\/[0-9a-f-]{36}$/), content_type: 'image/png', size: PNG.length });
    const mine = await read(file.url, admin);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.rawPayload.equals(PNG)).toBe(true);

    // no board shows it yet: only its uploader reads it
    expect((await read(file.url, viewer)).statusCode).toBe(404);
    await addComponent(Number(board.id), 'image', file.url);
    expect((await read(file.url, viewer)).statusCode).toBe(404);
    const ticket = await share(board.resource_uuid, viewerId);
    expect((await read(file.url, viewer)).rawPayload.equals(PNG)).toBe(true);

    // another user of the tenant, another tenant, no token
    const strangers = await read(file.url, stranger);
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json()).toEqual({ errors: [{ code: 'NOT_FOUND', message: 'Board file not found' }] });
    expect((await read(file.url, facility)).statusCode).toBe(404);
    expect((await read(file.url)).statusCode).toBe(401);

    await gql(admin, 'mutation($id: ID!) { remove_share_board(ticket_id: $id) { id } }', { id: ticket });
    expect((await read(file.url, viewer)).statusCode).toBe(404);
  });

  it('take videos by their signature whatever the declared type, and refuse scripts, text and nothing, storing none of them', async () => {
    expect((await upload(admin, WEBM, 'application/octet-stream')).json()).toMatchObject({ content_type: 'video/webm', size: WEBM.length });
    expect((await upload(admin, MP4, 'video/mp4')).json()).toMatchObject({ content_type: 'video/mp4' });
    const before = await storedCount();
    for (const [body, type] of [[SVG, 'image/png'], [SVG, 'image/svg+xml'], [HTML, 'video/mp4'], [HTML, 'text/html'], [HTML_AS_MP4, 'video/mp4'], [Buffer.from('hello'), 'image/png'], [Buffer.alloc(0), 'image/png']] as const) {
      const refused = await upload(admin, body, type);
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json()).toEqual({ errors: [{ code: 'BOARD_MEDIA_TYPE', message: 'A board file must be a PNG, JPEG or WebP image or an MP4 or WebM video.' }] });
    }
    expect(await storedCount()).toBe(before);
  });

  it('are bounded: an image over 5 MB, a body over 20 MB and a tenant at its quota are refused; files no component shows make room after a day', async () => {
    const before = await storedCount();
    const bigImage = await upload(admin, Buffer.concat([PNG, Buffer.alloc(BOARD_IMAGE_MAX_BYTES)]));
    expect(bigImage.statusCode).toBe(413);
    expect(bigImage.json().errors[0]).toMatchObject({ code: 'BOARD_MEDIA_SIZE', message: 'A board image must be 5 MB or smaller, a video 20 MB or smaller.' });
    expect((await upload(admin, Buffer.concat([WEBM, Buffer.alloc(BOARD_VIDEO_MAX_BYTES)]), 'video/webm')).statusCode).toBe(413);
    expect(await storedCount()).toBe(before);

    // a file no component shows, taking the whole quota
    const [{ id: filler }] = await t.db.systemQuery<{ id: string }>(sql`INSERT INTO board_media (tenant_id, content_type, size, bytes)
      SELECT id, 'image/png', ${BOARD_MEDIA_TENANT_MAX_BYTES}, '\\x00'::bytea FROM tenants WHERE name = 'Demo City' RETURNING id::text AS id`);
    const full = await upload(admin, PNG);
    expect(full.statusCode).toBe(413);
    expect(full.json().errors[0]).toMatchObject({ code: 'BOARD_MEDIA_QUOTA', message: 'The board files of this organisation take 200 MB already: remove components with files first.' });
    // the other tenant has its own quota
    expect((await upload(facility, PNG)).statusCode).toBe(200);

    await t.db.systemQuery(sql`UPDATE board_media SET created_at = now() - interval '25 hours' WHERE id = ${filler}::uuid`);
    expect((await upload(admin, PNG)).statusCode).toBe(200);
    expect(await t.db.systemQuery(sql`SELECT 1 FROM board_media WHERE id = ${filler}::uuid`)).toHaveLength(0);
  });

  it('reach an API user on a public-API board shared with it, and only there', async () => {
    const file = (await upload(admin, PNG)).json();
    const publicBoard = (await gql(admin, 'mutation { public_api_create_board(name: { en: "Public files" }) { id resource_uuid } }')).public_api_create_board;
    await addComponent(Number(publicBoard.id), 'image', file.url, 'public_api_');
    expect((await read(file.url, apiUser.shared.token)).statusCode).toBe(404);
    await share(publicBoard.resource_uuid, apiUser.shared.id, 'public_api_');
    expect((await read(file.url, apiUser.shared.token)).rawPayload.equals(PNG)).toBe(true);
    expect((await read(file.url, apiUser.unshared.token)).statusCode).toBe(404);
    // a performance board's file is not the public API's
    const [{ url: performanceFile }] = await t.db.systemQuery<{ url: string }>(sql`SELECT c.definition->>'url' AS url FROM components c
      JOIN board_components bc ON bc.component_id = c.id WHERE bc.board_id = ${board.id} AND c.definition->>'url' LIKE '/board-media/%'`);
    expect((await read(performanceFile, apiUser.shared.token)).statusCode).toBe(404);
  });

  it('are named only by who may read them, and a copy made while a share lasted shows nothing once it is removed', async () => {
    const file = (await upload(admin, PNG)).json();
    const publicBoard = (await gql(admin, 'mutation { public_api_create_board(name: { en: "Shared files" }) { id resource_uuid } }')).public_api_create_board;
    await addComponent(Number(publicBoard.id), 'image', file.url, 'public_api_');
    const ticket = await share(publicBoard.resource_uuid, apiUser.shared.id, 'public_api_');
    const api = (query: string, token: string, variables?: Record<string, unknown>) => t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
    const createOn = (boardId: number, token: string) => api('mutation($b: [Int!], $d: JSON) { public_api_create_component(name: "Copy", type: "image", definition: $d, board_ids: $b) { id } }', token, { b: [boardId], d: { url: file.url } });

    // the API user, while shared, copies the file's address onto a board of its own: accepted, it may read the file
    const own = (await api('mutation { public_api_create_board(name: { en: "Mine" }) { id } }', apiUser.shared.token)).body.data.public_api_create_board;
    const copied = await createOn(Number(own.id), apiUser.shared.token);
    expect(copied.body.errors).toBeUndefined();
    // another API user, who cannot read it, may not name it: as if it did not exist
    const theirs = (await api('mutation { public_api_create_board(name: { en: "Theirs" }) { id } }', apiUser.unshared.token)).body.data.public_api_create_board;
    const refused = await createOn(Number(theirs.id), apiUser.unshared.token);
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'REFERENCE_NOT_FOUND', field: 'definition.url' } });
    expect((await read(file.url, apiUser.unshared.token)).statusCode).toBe(404);

    // the share is removed: the copy on its own board gives it nothing
    await gql(admin, 'mutation($id: ID!) { public_api_remove_share_board(ticket_id: $id) { id } }', { id: ticket });
    expect((await read(file.url, apiUser.shared.token)).statusCode).toBe(404);
    // the owner still reads it, and the board's file is shown to whom it is shared with again
    expect((await read(file.url, admin)).statusCode).toBe(200);
    await share(publicBoard.resource_uuid, apiUser.shared.id, 'public_api_');
    expect((await read(file.url, apiUser.shared.token)).statusCode).toBe(200);
  });

  it('are uploaded only by those who may change components, never with an API token; bad ids are 400', async () => {
    const refusedOperator = await upload(operator, PNG);
    expect(refusedOperator.statusCode).toBe(403);
    expect(refusedOperator.json().errors[0].code).toBe('FORBIDDEN');
    expect((await upload(apiUser.shared.token, PNG)).statusCode).toBe(403);
    expect((await upload(undefined, PNG)).statusCode).toBe(401);
    for (const id of ['abc', '0', 'D0C0FFEE-0000-4000-8000-000000000000', `${'0'.repeat(8)}-0000-4000-8000-0000000000000`, '../etc/passwd']) {
      const answer = await read(`/board-media/${id}`, admin);
      expect(answer.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, id).toBeLessThan(500);
      expect(answer.body).not.toMatch(/SELECT|stack|\.ts:/);
    }
    expect((await read('/board-media/abc', admin)).statusCode).toBe(400);
    expect((await read('/board-media/00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
  });
});
