// Boards as their users and API clients meet them: the demo's boards; a board exists for its owner
// and the users it is shared with, each doing what their share allows; sharing, sharing again,
// leaving and revoking, live; components reached through their boards; performance and public-API
// boards kept apart; answers that tell nothing of other boards; hostile shares and definitions.
// The access of every door by every kind of caller is tabled in boardAccessMatrix.test.ts.
import { sql } from 'drizzle-orm';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { postCommitEvents } from '../../server/events/postCommit.ts';
import { resourceService } from '../../server/resources/resourceService.ts';
import { boardSchema } from '../../src/schemas/board.ts';
import { publicApiComponentSchema } from '../../src/schemas/publicApiComponent.ts';
import { addCityUser } from '../support/boardCallers.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let facility: string;
let editor: string;
let viewer: string;
let stranger: string;
const id: Record<string, string> = {};

const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
/** The data of a GraphQL answer that must have succeeded. */
const data = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await gql(token, query, variables);
  expect(answer.body.errors, query).toBeUndefined();
  return answer.body.data;
};
const firstError = (answer: { body: any }) => {
  const [error] = answer.body.errors;
  return { code: error.extensions?.code ?? error.code, field: error.extensions?.field ?? error.field, message: error.message, params: error.extensions?.params ?? error.params };
};

const BOARD = 'id name description attributes group_ids created_at updated_at tenant_id resource_uuid is_owner scopes';
const newBoard = async (token: string, name: string, kind = '') =>
  (await data(token, `mutation { ${kind}create_board(name: { en: "${name}" }) { ${BOARD} } }`))[`${kind}create_board`];
const shareBoard = (token: string, resource: string, requester: string, scopeName = 'view', kind = '') =>
  gql(token, `mutation($r: String, $q: String, $s: String) { ${kind}share_board(resource: $r, requester: $q, scopeName: $s) { id owner resource scope granted requester } }`,
    { r: resource, q: requester, s: scopeName });
const readBoard = (token: string, boardId: number | string, kind = '') => gql(token, `query($id: ID!) { ${kind}board(id: $id) { ${BOARD} } }`, { id: boardId });
const newComponent = async (token: string, boardIds: number[], extra = '') =>
  (await data(token, `mutation($b: [Int!]) { create_component(name: "Note", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b${extra}) { id board_ids } }`, { b: boardIds })).create_component;

beforeAll(async () => {
  t = await startTestApp();
  id.editor = await addCityUser(t, 'editor@demo.city');
  id.viewer = await addCityUser(t, 'viewer@demo.city');
  id.stranger = await addCityUser(t, 'stranger@demo.city');
  [admin, operator, facility, editor, viewer, stranger] = await Promise.all(
    ['admin@demo.city', 'operator@demo.city', 'admin@demo.facility', 'editor@demo.city', 'viewer@demo.city', 'stranger@demo.city']
      .map(async (email) => (await t.login(email)).access_token),
  );
  for (const [name, token] of Object.entries({ admin, operator, facility })) id[name] = (await t.get('/user-me', token)).body.id;
});
afterAll(async () => { await t?.close(); });

describe('the demo boards', () => {
  it('the administrator owns a performance board with a chart, a text and an image, and a public-API board whose chart carries its data', async () => {
    const [board] = (await t.get('/board-list', admin)).body;
    expect(board).toMatchObject({ name: { en: 'Operations overview' }, is_owner: true, scopes: ['owner'] });
    const components = (await t.get(`/component-list?board_id=${board.id}`, admin)).body;
    expect(components.map((component: { type: string }) => component.type).sort()).toEqual(['image', 'kpi', 'richtext']);
    expect(components.find((component: { type: string }) => component.type === 'image').definition.url).toMatch(/^\/branding\/city\//);

    const [publicBoard] = (await t.get('/public-api-board-list', admin)).body;
    expect(publicBoard).toMatchObject({ is_owner: true, scopes: ['owner'], share: null, group: { name: 'Lighting' } });
    const [chart] = (await t.get(`/public-api-component-list?board_id=${publicBoard.id}`, admin)).body;
    expect(chart).toMatchObject({ type: 'kpi', query: [{ key: 'power', aggregation: 'avg' }], data: { id: chart.definition.kpi_id, timezone: 'UTC' } });
    // the demo's telemetry is there from the first start
    expect(chart.data.series[0].data.length).toBeGreaterThan(0);
  });

  it('the operator sees the one board shared with him, to view, and no public-API board', async () => {
    const boards = (await t.get('/board-list', operator)).body;
    expect(boards).toHaveLength(1);
    expect(boards[0]).toMatchObject({ name: { en: 'Operations overview' }, is_owner: false, scopes: ['view'] });
    expect((await t.get(`/component-list?board_id=${boards[0].id}`, operator)).body).toHaveLength(3);
    const refused = await gql(operator, 'mutation($id: ID!) { update_board(id: $id, name: { en: "Mine" }) { id } }', { id: boards[0].id });
    expect(firstError(refused)).toMatchObject({ code: 'FORBIDDEN', params: { permission: 'performance.board.edit' } });
    expect((await t.get('/public-api-board-list', operator)).status).toBe(403);
  });

  it('another tenant sees only its own boards', async () => {
    const theirs = (await t.get('/board-list', facility)).body;
    const ours = (await t.get('/board-list', admin)).body;
    expect(theirs.map((board: { id: number }) => board.id)).not.toContain(ours[0].id);
    expect(theirs.every((board: { is_owner: boolean }) => board.is_owner)).toBe(true);
  });
});

describe('a board exists for its owner and those it is shared with', () => {
  it('is created owned by its creator; no one else of the tenant sees it', async () => {
    const board = await newBoard(editor, 'Editor\'s own');
    expect(board).toMatchObject({ is_owner: true, scopes: ['owner'], tenant_id: expect.stringMatching(/^[0-9a-f-]{36}$/), resource_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [{ owner }] = await t.db.systemQuery<{ owner: string }>(sql`SELECT owner_id::text AS owner FROM boards WHERE id = ${Number(board.id)}`);
    expect(owner).toBe(id.editor);
    expect(firstError(await readBoard(admin, board.id))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.get('/board-list', admin)).body.map((row: { id: number }) => row.id)).not.toContain(Number(board.id));
  });

  it('an editor changes the board and its components but neither deletes nor shares it; a viewer only reads', async () => {
    const board = await newBoard(admin, 'Shared to work on');
    expect((await shareBoard(admin, board.resource_uuid, id.editor, 'edit')).status).toBe(200);
    expect((await shareBoard(admin, board.resource_uuid, id.viewer, 'view')).status).toBe(200);
    expect((await readBoard(editor, board.id)).body.data.board).toMatchObject({ is_owner: false, scopes: ['view', 'edit'] });
    expect((await readBoard(viewer, board.id)).body.data.board).toMatchObject({ is_owner: false, scopes: ['view'] });

    const changed = await data(editor, 'mutation($id: ID!) { update_board(id: $id, name: { en: "Renamed" }, attributes: { theme: "dark" }) { name attributes } }', { id: board.id });
    expect(changed.update_board).toEqual({ name: { en: 'Renamed' }, attributes: { theme: 'dark' } });
    const component = await newComponent(editor, [Number(board.id)]);
    await data(editor, 'mutation($id: ID!) { update_component(id: $id, layout: { x: 12, y: 0, w: 12, h: 6 }) { id } }', { id: component.id });

    const deleting = await gql(editor, 'mutation($id: ID!) { delete_board(id: $id) { id } }', { id: board.id });
    expect(deleting.status).toBe(403);
    expect(firstError(deleting)).toEqual({ code: 'FORBIDDEN', message: 'Only the board\'s owner may do this.', field: undefined, params: { scope: 'owner' } });
    const sharing = await shareBoard(editor, board.resource_uuid, id.stranger);
    expect(firstError(sharing)).toMatchObject({ code: 'FORBIDDEN', field: 'resource', message: 'resource: Only the board\'s owner may do this.' });

    const viewing = await gql(viewer, 'mutation($id: ID!) { update_board(id: $id, name: { en: "Mine now" }) { id } }', { id: board.id });
    expect(viewing.status).toBe(403);
    expect(firstError(viewing)).toMatchObject({ code: 'FORBIDDEN', message: 'You may only view this board: changing it needs the edit scope.', params: { scope: 'edit' } });
    const placing = await gql(viewer, 'mutation($b: [Int!]) { create_component(name: "X", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b) { id } }', { b: [Number(board.id)] });
    expect(firstError(placing)).toMatchObject({ code: 'FORBIDDEN', field: 'board_ids', params: { scope: 'edit' } });
    expect(firstError(await gql(viewer, 'mutation($id: ID!) { delete_component(id: $id) { id } }', { id: component.id }))).toMatchObject({ code: 'FORBIDDEN' });
    expect((await readBoard(admin, board.id)).body.data.board.name).toEqual({ en: 'Renamed' });
  });

  it('the owner deletes the board: its shares and the components on no other board go with it', async () => {
    const board = await newBoard(admin, 'Short-lived');
    const share = (await shareBoard(admin, board.resource_uuid, id.viewer)).body.data.share_board;
    const component = await newComponent(admin, [Number(board.id)]);
    await data(admin, 'mutation($id: ID!) { delete_board(id: $id) { id deleted } }', { id: board.id });
    const [left] = await t.db.systemQuery<{ shares: number; components: number }>(sql`SELECT
      (SELECT count(*)::int FROM shares WHERE id = ${Number(share.id)}) AS shares, (SELECT count(*)::int FROM components WHERE id = ${Number(component.id)}) AS components`);
    expect(left).toEqual({ shares: 0, components: 0 });
  });
});

describe('sharing', () => {
  it('answers the share; sharing again changes its scope; the list holds the caller\'s own shares; the requester may leave', async () => {
    const board = await newBoard(admin, 'To share');
    const shared = await shareBoard(admin, board.resource_uuid, id.viewer, 'view');
    expect(shared.body.data.share_board).toEqual({ id: expect.any(String), owner: id.admin, resource: board.resource_uuid, scope: 'view', granted: true, requester: id.viewer });
    const again = await shareBoard(admin, board.resource_uuid, id.viewer, 'edit');
    expect(again.body.data.share_board).toMatchObject({ id: shared.body.data.share_board.id, scope: 'edit' });
    expect((await readBoard(viewer, board.id)).body.data.board.scopes).toEqual(['view', 'edit']);

    const ticket = shared.body.data.share_board.id;
    const listed = (token: string) => data(token, '{ share_list { id requester } }').then((answer) => answer.share_list.map((share: { id: string }) => share.id));
    expect(await listed(admin)).toContain(ticket);
    expect(await listed(viewer)).not.toContain(ticket);
    await data(viewer, 'mutation($id: ID!) { remove_share_board(ticket_id: $id) { id deleted } }', { id: ticket });
    expect(firstError(await readBoard(viewer, board.id))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await listed(admin)).not.toContain(ticket);
  });

  it('a public-API board is shared with an API user of the tenant, who sees it by their id; a performance board is not', async () => {
    const [{ id: apiUser }] = await t.db.systemQuery<{ id: string }>(sql`INSERT INTO api_users (tenant_id, username, password_hash)
      SELECT id, 'dashboard-client', 'unused' FROM tenants WHERE name = 'Demo City' RETURNING id::text`);
    const board = await newBoard(admin, 'For a client', 'public_api_');
    const shared = await shareBoard(admin, board.resource_uuid, apiUser, 'view', 'public_api_');
    expect(shared.body.data.public_api_share_board).toMatchObject({ requester: apiUser, scope: 'view' });
    const performance = await newBoard(admin, 'Not for a client');
    expect(firstError(await shareBoard(admin, performance.resource_uuid, apiUser))).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'requester' });

    // visibility is by user id: the resource engine serves an API caller of that id like any user
    const [{ tenant }] = await t.db.systemQuery<{ tenant: string }>(sql`SELECT tenant_id::text AS tenant FROM api_users WHERE id = ${apiUser}`);
    const client = { tenantId: tenant, userId: apiUser, sessionId: 'token', modules: ['public-api-dashboard'], permissions: [] };
    const engine = resourceService(t.db, { events: postCommitEvents(t.app.log) });
    expect(await engine.get(client, 'public_api_board', Number(board.id))).toMatchObject({
      id: Number(board.id), is_owner: false, scopes: ['view'],
      share: { id: Number(shared.body.data.public_api_share_board.id), owner: id.admin, ownerName: 'City admin', requester: apiUser, requesterName: 'dashboard-client', scopeName: 'view' },
    });
    expect((await engine.list(client, 'public_api_board', {})).rows.map((row) => row.id)).toEqual([Number(board.id)]);
    await expect(engine.get(client, 'public_api_board', Number((await t.get('/public-api-board-list', admin)).body[0].id))).rejects.toMatchObject({ statusCode: 404 });
  });

  it('a public-API board tells its reader the share that gives it to them, and its first group', async () => {
    const board = await newBoard(admin, 'Public, shared', 'public_api_');
    await data(admin, 'mutation($id: ID!, $g: [Int!]) { public_api_update_board(id: $id, group_ids: $g) { id } }', { id: board.id, g: [(await t.get('/group-list', admin)).body[0].id] });
    const share = (await shareBoard(admin, board.resource_uuid, id.editor, 'edit', 'public_api_')).body.data.public_api_share_board;
    const read = await data(editor, 'query($id: ID!) { public_api_board(id: $id) { is_owner scopes share group } }', { id: board.id });
    expect(read.public_api_board).toEqual({
      is_owner: false, scopes: ['view', 'edit'], group: expect.objectContaining({ id: expect.any(Number), name: expect.any(String) }),
      share: { id: Number(share.id), owner: id.admin, ownerName: 'City admin', requester: id.editor, requesterName: 'editor', scopeName: 'edit' },
    });
    expect((await data(admin, 'query($id: ID!) { public_api_board(id: $id) { share } }', { id: board.id })).public_api_board.share).toBeNull();
  });
});

describe('performance and public-API boards are kept apart', () => {
  it('no door of one kind shows, names or shares a board of the other', async () => {
    const performance = await newBoard(admin, 'Performance only');
    const publicApi = await newBoard(admin, 'Public only', 'public_api_');
    expect(firstError(await readBoard(admin, publicApi.id))).toMatchObject({ code: 'NOT_FOUND' });
    expect(firstError(await readBoard(admin, performance.id, 'public_api_'))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.get('/board-list', admin)).body.map((board: { id: number }) => board.id)).not.toContain(Number(publicApi.id));
    expect((await t.get('/public-api-board-list', admin)).body.map((board: { id: number }) => board.id)).not.toContain(Number(performance.id));
    const misplaced = await gql(admin, 'mutation($b: [Int!]) { create_component(name: "X", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b) { id } }', { b: [Number(publicApi.id)] });
    expect(firstError(misplaced)).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'board_ids' });
    expect(firstError(await shareBoard(admin, publicApi.resource_uuid, id.viewer))).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'resource' });
    const onPublic = (await data(admin, 'mutation($b: [Int!]) { public_api_create_component(name: "Y", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b) { id } }', { b: [Number(publicApi.id)] }))
      .public_api_create_component;
    expect((await t.get(`/component-list?board_id=${publicApi.id}`, admin)).body).toEqual([]);
    expect(firstError(await gql(admin, 'query($id: ID!) { component(id: $id) { id } }', { id: onPublic.id }))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('components are reached through their boards', () => {
  it('answer only the boards the reader sees; an editor\'s write keeps the links to boards they may not change', async () => {
    const seen = await newBoard(admin, 'Seen by the editor');
    const unseen = await newBoard(admin, 'Not shared');
    await shareBoard(admin, seen.resource_uuid, id.editor, 'edit');
    const component = await newComponent(admin, [Number(seen.id), Number(unseen.id)]);
    const boardsOf = async (token: string) => (await data(token, 'query($id: ID!) { component(id: $id) { board_ids } }', { id: component.id })).component.board_ids;
    expect(await boardsOf(admin)).toEqual([Number(seen.id), Number(unseen.id)]);
    expect(await boardsOf(editor)).toEqual([Number(seen.id)]);

    await data(editor, 'mutation($id: ID!, $b: [Int!]) { update_component(id: $id, name: "Renamed", board_ids: $b) { id } }', { id: component.id, b: [Number(seen.id)] });
    expect(await boardsOf(admin)).toEqual([Number(seen.id), Number(unseen.id)]);
    const naming = await gql(editor, 'mutation($id: ID!, $b: [Int!]) { update_component(id: $id, board_ids: $b) { id } }', { id: component.id, b: [Number(seen.id), Number(unseen.id)] });
    expect(firstError(naming)).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'board_ids', message: `board_ids: ${unseen.id} does not exist` });
  });

  it('delete_component leaves the boards named, and deletes the component once it is on none; a component is created on a board', async () => {
    const first = await newBoard(admin, 'First');
    const second = await newBoard(admin, 'Second');
    const component = await newComponent(admin, [Number(first.id), Number(second.id)]);
    await data(admin, 'mutation($id: ID!, $b: [Int!]) { delete_component(id: $id, board_ids: $b) { id deleted } }', { id: component.id, b: [Number(first.id)] });
    expect((await t.get(`/component-list?board_id=${first.id}`, admin)).body).toEqual([]);
    expect((await t.get(`/component-list?board_id=${second.id}`, admin)).body.map((row: { id: number }) => row.id)).toEqual([Number(component.id)]);
    await data(admin, 'mutation($id: ID!) { delete_component(id: $id) { id deleted } }', { id: component.id });
    expect(firstError(await gql(admin, 'query($id: ID!) { component(id: $id) { id } }', { id: component.id }))).toMatchObject({ code: 'NOT_FOUND' });

    const nowhere = await gql(admin, 'mutation { create_component(name: "Floating", type: "richtext", definition: { html: "<p>Note</p>" }) { id } }');
    expect(firstError(nowhere)).toMatchObject({ code: 'VALIDATION', field: 'board_ids', message: 'board_ids must name at least one board' });
  });
});

describe('revocation', () => {
  interface Change { resource: string; action: string; id: string; record: { scopes?: string[] } | null }
  const listen = (url: string, token: string) => {
    const received: Change[] = [];
    const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0 });
    client.subscribe({ query: 'subscription { resource_changed(resource: "board") { resource action id record } }' }, {
      next: (value) => received.push(value.data?.resource_changed as Change), error: (error) => received.push(error as unknown as Change), complete: () => {},
    });
    onTestFinished(() => client.dispose());
    return received;
  };
  /** Changes the board's description until the listener hears of it: its subscription is live, and what came before has arrived. */
  const heard = async (received: Change[], boardId: string) => {
    await expect.poll(async () => {
      if (received.some((change) => change.id === boardId)) return true;
      await data(admin, 'mutation($id: ID!) { update_board(id: $id, description: { en: "Ping" }) { id } }', { id: boardId });
      return false;
    }, { timeout: 5000, interval: 100 }).toBe(true);
  };

  it('takes effect at once: the requester\'s next read is refused and their open page hears the board deleted; no one else hears of it', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
    const board = await newBoard(admin, 'Revoked soon');
    const ticket = (await shareBoard(admin, board.resource_uuid, id.viewer)).body.data.share_board.id;
    const viewerHears = listen(url, viewer);
    const strangerHears = listen(url, stranger);
    await heard(viewerHears, board.id);
    expect(viewerHears.at(-1)).toMatchObject({ action: 'updated', id: board.id, record: { scopes: ['view'] } });

    await data(admin, 'mutation($id: ID!) { remove_share_board(ticket_id: $id) { id } }', { id: ticket });
    expect(firstError(await readBoard(viewer, board.id))).toMatchObject({ code: 'NOT_FOUND' });
    await expect.poll(() => viewerHears.at(-1), { timeout: 5000 }).toEqual({ resource: 'board', action: 'deleted', id: board.id, record: null });

    // the stranger hears of a board once it is shared with them, and of nothing before
    const theirs = await newBoard(admin, 'Shared with the stranger later');
    await shareBoard(admin, theirs.resource_uuid, id.stranger);
    await heard(strangerHears, theirs.id);
    expect(strangerHears.map((change) => change.id).every((changed) => changed === theirs.id)).toBe(true);
    expect(strangerHears[0]).toMatchObject({ action: 'updated', id: theirs.id, record: { scopes: ['view'] } });
  });
});

describe('answers tell nothing of other boards', () => {
  it('a board\'s and a component\'s answers hold only their own fields, the boards the reader sees, no owner\'s secrets', async () => {
    const board = await newBoard(admin, 'Looked at');
    const other = await newBoard(admin, 'Hidden neighbour');
    await shareBoard(admin, board.resource_uuid, id.viewer);
    const component = await newComponent(admin, [Number(board.id), Number(other.id)]);
    const read = (await readBoard(viewer, board.id)).body.data.board;
    const listed = (await t.get(`/component-list?board_id=${board.id}`, viewer)).body;
    for (const answer of [read, ...listed]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(other.resource_uuid);
      expect(text).not.toMatch(/admin@demo\.city|password|\$argon2|owner_id/);
    }
    expect(listed.find((row: { id: number }) => row.id === Number(component.id)).board_ids).toEqual([Number(board.id)]);
    expect(Object.keys(boardSchema.properties)).toEqual(expect.arrayContaining(Object.keys((await t.get('/board-list', viewer)).body[0])));
  });

  it('a public-API KPI component answers its own KPI\'s query and data, nothing of another KPI', async () => {
    const [publicBoard] = (await t.get('/public-api-board-list', admin)).body;
    const [chart] = (await t.get(`/public-api-component-list?board_id=${publicBoard.id}`, admin)).body;
    const kpi = (await data(admin, 'query($id: ID!) { kpi(id: $id) { query } }', { id: chart.definition.kpi_id })).kpi;
    expect(chart.query).toEqual(kpi.query);
    expect(chart.data.id).toBe(chart.definition.kpi_id);
    expect([...new Set(chart.data.series.map((series: { key: string }) => series.key))]).toEqual(kpi.query.map((item: { key: string }) => item.key));
    expect(Object.keys(publicApiComponentSchema.properties)).toEqual(expect.arrayContaining(Object.keys(chart)));
    expect(JSON.stringify(chart)).not.toMatch(/temperature|humidity|co2|occupied|access_token|password/);
    // a component of another type carries neither
    const note = (await data(admin, 'mutation($b: [Int!]) { public_api_create_component(name: "N", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b) { query data } }', { b: [publicBoard.id] }));
    expect(note.public_api_create_component).toEqual({ query: null, data: null });
  });
});

describe('hostile shares and definitions', () => {
  it('refuses another tenant\'s user, oneself, an unknown scope, a malformed resource and another tenant\'s ticket, each with a clear 400 or 404', async () => {
    const board = await newBoard(admin, 'Guarded');
    expect(firstError(await shareBoard(admin, board.resource_uuid, id.facility))).toEqual({
      code: 'REFERENCE_NOT_FOUND', field: 'requester', message: `requester: ${id.facility} does not exist`, params: { id: id.facility },
    });
    const self = await shareBoard(admin, board.resource_uuid, id.admin);
    expect(self.status).toBe(400);
    expect(firstError(self)).toMatchObject({ code: 'SHARE_WITH_OWNER', field: 'requester', message: 'A board cannot be shared with its owner.' });
    const scope = await shareBoard(admin, board.resource_uuid, id.viewer, 'admin');
    expect(scope.status).toBe(400);
    expect(firstError(scope)).toMatchObject({ code: 'VALIDATION', field: 'scope', message: 'scope must be equal to one of the allowed values' });
    expect(firstError(await shareBoard(admin, 'not-a-uuid', id.viewer))).toMatchObject({ code: 'VALIDATION', field: 'resource' });
    const theirs = await newBoard(facility, 'Theirs');
    const [{ id: colleague }] = await t.db.systemQuery<{ id: string }>(sql`INSERT INTO users (tenant_id, username, email, password_hash)
      SELECT tenant_id, 'Colleague', 'colleague@demo.facility', 'unused' FROM users WHERE email = 'admin@demo.facility' RETURNING id::text`);
    const theirTicket = (await shareBoard(facility, theirs.resource_uuid, colleague)).body.data.share_board.id;
    expect(firstError(await gql(admin, 'mutation($id: ID!) { remove_share_board(ticket_id: $id) { id } }', { id: theirTicket }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a huge, a deep and a wide definition with a 400 naming it, and keeps nothing', async () => {
    const board = await newBoard(admin, 'Defined');
    const place = (definition: unknown) =>
      gql(admin, 'mutation($b: [Int!], $d: JSON) { create_component(name: "Big", type: "richtext", board_ids: $b, definition: $d) { id } }', { b: [Number(board.id)], d: definition });
    const huge = await place({ html: '<p>x</p>', notes: 'x'.repeat(300_000) });
    expect(firstError(huge)).toMatchObject({ code: 'DEFINITION_TOO_LARGE', field: 'definition', params: { limit: 262_144 } });
    let deep: unknown = {};
    for (let level = 0; level < 100; level++) deep = { inner: deep };
    expect(firstError(await place(deep))).toMatchObject({ code: 'JSON_TOO_DEEP' });
    const wide = await place({ html: '<p>x</p>', ...Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`key${index}`, index])) });
    expect(wide.status).toBe(400);
    expect(firstError(wide)).toMatchObject({ code: 'VALIDATION', field: 'definition' });
    expect((await t.get(`/component-list?board_id=${board.id}`, admin)).body).toEqual([]);
  });
});
