// Every board, component and share door — REST and GraphQL, performance and public-API — called by
// each kind of caller: the board's owner, a user it is shared with to edit, one it is shared with
// to view, another user of the tenant with the same modules and permissions but no share, a user
// of another tenant, a request without a token, and two API users of the tenant (one a public-API
// board is shared with to view, one with none; every other door refuses an API token: 403). Each
// answer is compared with the table below
// (a status, and the error's code), and the test counts the 2xx answers the table does not expect:
// none. A board that is not shared with a caller does not exist for them (404, absent from lists,
// an unknown reference in a write); one they only view answers every write with 403.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCityUser } from '../support/boardCallers.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;

/** Which column of the table a caller's answers are read from. */
type Role = 'owner' | 'editor' | 'viewer' | 'stranger' | 'otherTenant' | 'anonymous';

/**
 * The callers, one entry each: its name, its role, how it signs in and what the owner shares with
 * it (a caller of an existing role — an API user given a public-API board to view — is one more entry).
 */
interface Caller { name: string; role: Role; signIn(): Promise<string | undefined>; shared?: 'edit' | 'view'; apiUser?: boolean }
const CALLERS: Caller[] = [
  { name: 'owner', role: 'owner', signIn: () => token('admin@demo.city') },
  { name: 'editor', role: 'editor', signIn: () => token('editor@demo.city'), shared: 'edit' },
  { name: 'viewer', role: 'viewer', signIn: () => token('viewer@demo.city'), shared: 'view' },
  { name: 'stranger (same tenant, same permissions)', role: 'stranger', signIn: () => token('stranger@demo.city') },
  { name: 'another tenant\'s admin', role: 'otherTenant', signIn: () => token('admin@demo.facility') },
  { name: 'no token', role: 'anonymous', signIn: async () => undefined },
  { name: 'API user (shared to view)', role: 'viewer', signIn: () => apiUserToken('API user (shared to view)'), shared: 'view', apiUser: true },
  { name: 'API user (no share)', role: 'stranger', signIn: () => apiUserToken('API user (no share)'), apiUser: true },
];
const token = async (email: string) => (await t.login(email)).access_token;
/** API users of Demo City with every public-API board permission, by caller name: their ids and tokens. */
const apiUsers = new Map<string, { id: string; access_token: string }>();
const apiUserToken = async (name: string) => apiUsers.get(name)!.access_token;
/** An API token reaches only the public API: the performance doors refuse it. */
const expectedOf = (door: Door, kind: Kind, caller: Caller): Outcome => (caller.apiUser && kind.name === 'performance' ? 403 : door.expected[caller.role]);

/**
 * What a door answers: `shown` / `hidden` a 200 list with / without the fixture's record, `ok` a
 * 2xx, or a refusal: 400 REFERENCE_NOT_FOUND, 401 JWT100, 403 FORBIDDEN, 404 NOT_FOUND.
 */
type Outcome = 'shown' | 'hidden' | 'ok' | 400 | 401 | 403 | 404;
const REFUSAL_CODES: Record<number, string> = { 400: 'REFERENCE_NOT_FOUND', 401: 'JWT100', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** The operations of one kind of board. */
interface Kind {
  name: string; restBoards: string; restComponents: string;
  boardList: string; board: string; createBoard: string; updateBoard: string; deleteBoard: string;
  componentList: string; component: string; createComponent: string; updateComponent: string; deleteComponent: string;
  shareList: string; share: string; shareBoard: string; removeShare: string;
}
const KINDS: Kind[] = [
  {
    name: 'performance', restBoards: '/board-list', restComponents: '/component-list',
    boardList: 'board_list', board: 'board', createBoard: 'create_board', updateBoard: 'update_board', deleteBoard: 'delete_board',
    componentList: 'component_list', component: 'component', createComponent: 'create_component', updateComponent: 'update_component', deleteComponent: 'delete_component',
    shareList: 'share_list', share: 'share', shareBoard: 'share_board', removeShare: 'remove_share_board',
  },
  {
    name: 'public-API', restBoards: '/public-api-board-list', restComponents: '/public-api-component-list',
    boardList: 'public_api_board_list', board: 'public_api_board', createBoard: 'public_api_create_board', updateBoard: 'public_api_update_board',
    deleteBoard: 'public_api_delete_board', componentList: 'public_api_component_list', component: 'public_api_component',
    createComponent: 'public_api_create_component', updateComponent: 'public_api_update_component', deleteComponent: 'public_api_delete_component',
    shareList: 'public_api_share_list', share: 'public_api_share', shareBoard: 'public_api_share_board', removeShare: 'public_api_remove_share_board',
  },
];

interface Answer { status: number; body: any }
/** A board shared with the editor and the viewer, a component on it, and a share of it with a third user (the ticket). */
interface Fixture { board: number; resource: string; group: number; component: number; ticket: number }

const gql = (bearer: string | undefined, query: string, variables: Record<string, unknown> = {}) =>
  t.send({ method: 'POST', path: '/graphql', token: bearer, body: { query, variables } });

/** A door: how the caller calls it on a fixture (`fresh`: on a fixture of its own, as it destroys it), and the table's row. */
interface Door { name: string; fresh?: boolean; call(kind: Kind, bearer: string | undefined, fixture: Fixture): Promise<Answer>; expected: Record<Role, Outcome>; listOf?: (kind: Kind, body: any) => unknown[] }

const allowedToAll = (outcome: Outcome): Record<Role, Outcome> =>
  ({ owner: outcome, editor: outcome, viewer: outcome, stranger: outcome, otherTenant: outcome, anonymous: 401 });
const SEEN = { owner: 'shown', editor: 'shown', viewer: 'shown', stranger: 'hidden', otherTenant: 'hidden', anonymous: 401 } as const;
const READ = { owner: 'ok', editor: 'ok', viewer: 'ok', stranger: 404, otherTenant: 404, anonymous: 401 } as const;
const EDIT = { owner: 'ok', editor: 'ok', viewer: 403, stranger: 404, otherTenant: 404, anonymous: 401 } as const;
const OWN = { owner: 'ok', editor: 403, viewer: 403, stranger: 404, otherTenant: 404, anonymous: 401 } as const;
/** A write naming the board: one the caller cannot see is an unknown reference. */
const NAMING = (seen: Outcome) => ({ owner: 'ok', editor: seen, viewer: 403, stranger: 400, otherTenant: 400, anonymous: 401 }) as const;
const SHARE_OWNER_ONLY = { owner: 'ok', editor: 404, viewer: 404, stranger: 404, otherTenant: 404, anonymous: 401 } as const;

const ids = (rows: unknown) => (Array.isArray(rows) ? rows.map((row: { id: string | number }) => Number(row.id)) : []);

const DOORS: Door[] = [
  { name: 'REST board list', call: (k, b) => t.send({ path: k.restBoards, token: b }), expected: SEEN, listOf: (_k, body) => ids(body) },
  { name: 'REST board list by group', call: (k, b, f) => t.send({ path: `${k.restBoards}?group=${f.group}`, token: b }), expected: SEEN, listOf: (_k, body) => ids(body) },
  { name: 'board_list(group)', call: (k, b, f) => gql(b, `query($g: ID) { ${k.boardList}(group: $g) { id name is_owner scopes } }`, { g: f.group }), expected: SEEN,
    listOf: (k, body) => ids(body.data?.[k.boardList]) },
  { name: 'board(id)', call: (k, b, f) => gql(b, `query($id: ID!) { ${k.board}(id: $id) { id name is_owner scopes } }`, { id: f.board }), expected: READ },
  { name: 'create_board', call: (k, b) => gql(b, `mutation { ${k.createBoard}(name: { en: "Made in the matrix" }) { id } }`), expected: allowedToAll('ok') },
  { name: 'update_board', call: (k, b, f) => gql(b, `mutation($id: ID!) { ${k.updateBoard}(id: $id, description: { en: "Changed" }) { id } }`, { id: f.board }), expected: EDIT },
  { name: 'delete_board', fresh: true, call: (k, b, f) => gql(b, `mutation($id: ID!) { ${k.deleteBoard}(id: $id) { id deleted } }`, { id: f.board }), expected: OWN },
  { name: 'REST component list (board_id)', call: (k, b, f) => t.send({ path: `${k.restComponents}?board_id=${f.board}`, token: b }), expected: SEEN,
    listOf: (_k, body) => ids(body) },
  { name: 'component_list(board_id)', call: (k, b, f) => gql(b, `query($b: ID) { ${k.componentList}(board_id: $b) { id } }`, { b: f.board }), expected: SEEN,
    listOf: (k, body) => ids(body.data?.[k.componentList]) },
  { name: 'component(id)', call: (k, b, f) => gql(b, `query($id: ID!) { ${k.component}(id: $id) { id name } }`, { id: f.component }), expected: READ },
  { name: 'create_component(board_ids)', call: (k, b, f) => gql(b, `mutation($b: [Int!]) { ${k.createComponent}(name: "Note", type: "richtext", definition: { html: "<p>Note</p>" }, board_ids: $b) { id } }`,
    { b: [f.board] }), expected: NAMING('ok') },
  { name: 'update_component', call: (k, b, f) => gql(b, `mutation($id: ID!) { ${k.updateComponent}(id: $id, layout: { x: 2, y: 1, w: 6, h: 4 }) { id } }`,
    { id: f.component }), expected: EDIT },
  { name: 'delete_component(id, board_ids)', fresh: true, call: (k, b, f) => gql(b, `mutation($id: ID!, $b: [Int!]) { ${k.deleteComponent}(id: $id, board_ids: $b) { id deleted } }`,
    { id: f.component, b: [f.board] }), expected: EDIT },
  { name: 'share_list', call: (k, b) => gql(b, `{ ${k.shareList} { id resource scope requester } }`), expected: { ...SEEN, editor: 'hidden', viewer: 'hidden' },
    listOf: (k, body) => ids(body.data?.[k.shareList]) },
  { name: 'share(id)', call: (k, b, f) => gql(b, `query($id: ID!) { ${k.share}(id: $id) { id } }`, { id: f.ticket }), expected: SHARE_OWNER_ONLY },
  { name: 'share_board(resource, requester, scopeName)', fresh: true, call: (k, b, f) => gql(b,
    `mutation($r: String, $q: String) { ${k.shareBoard}(resource: $r, requester: $q, scopeName: "edit") { id } }`, { r: f.resource, q: thirdUser }),
  expected: { owner: 'ok', editor: 403, viewer: 403, stranger: 400, otherTenant: 400, anonymous: 401 } },
  { name: 'remove_share_board(ticket_id)', fresh: true, call: (k, b, f) => gql(b, `mutation($id: ID!) { ${k.removeShare}(ticket_id: $id) { id deleted } }`, { id: f.ticket }),
    expected: SHARE_OWNER_ONLY },
];

let ownerToken: string;
let thirdUser: string;
let cityGroup: number;
/** Whom each caller is, as a share's requester, by caller name. */
const sharedWith = new Map<string, string>();
const callerTokens = new Map<Caller, string | undefined>();

/** The owner's fresh board of `kind` in a group, shared as CALLERS say, with a component and a ticket (a share with the third user). */
async function fixtureOf(kind: Kind, label: string): Promise<Fixture> {
  const made = await gql(ownerToken, `mutation($g: [Int!]) { ${kind.createBoard}(name: { en: "${label}" }, group_ids: $g) { id resource_uuid group_ids } }`, { g: [cityGroup] });
  expect(made.body.errors, label).toBeUndefined();
  const board = made.body.data[kind.createBoard];
  const share = (requester: string, scope: string) =>
    gql(ownerToken, `mutation($r: String, $q: String, $s: String) { ${kind.shareBoard}(resource: $r, requester: $q, scopeName: $s) { id } }`, { r: board.resource_uuid, q: requester, s: scope });
  for (const caller of CALLERS) {
    // public-API boards only are shared with API users
    if (caller.shared && !(caller.apiUser && kind.name === 'performance')) expect((await share(sharedWith.get(caller.name)!, caller.shared)).status).toBe(200);
  }
  const ticket = (await share(thirdUser, 'view')).body.data[kind.shareBoard].id;
  const component = (await gql(ownerToken, `mutation($b: [Int!]) { ${kind.createComponent}(name: "Chart", type: "richtext", definition: { html: "<p>Chart</p>" }, board_ids: $b) { id } }`, { b: [Number(board.id)] }))
    .body.data[kind.createComponent].id;
  return { board: Number(board.id), resource: board.resource_uuid, group: board.group_ids[0], component: Number(component), ticket: Number(ticket) };
}

beforeAll(async () => {
  t = await startTestApp();
  sharedWith.set('editor', await addCityUser(t, 'editor@demo.city'));
  sharedWith.set('viewer', await addCityUser(t, 'viewer@demo.city'));
  await addCityUser(t, 'stranger@demo.city');
  thirdUser = await addCityUser(t, 'third@demo.city');
  const admin = await token('admin@demo.city');
  for (const [index, caller] of CALLERS.filter((c) => c.apiUser).entries()) {
    const made = await t.post('/api/users', { username: `matrix-${index}.bot`, password: 'long-secret-pass-1', permissions: ['public-api.board.*'] }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    apiUsers.set(caller.name, made.body);
    sharedWith.set(caller.name, made.body.id);
  }
  [{ id: cityGroup }] = await t.db.systemQuery<{ id: number }>(sql`SELECT min(g.id) AS id FROM groups g JOIN tenants t ON t.id = g.tenant_id WHERE t.name = 'Demo City'`);
  ownerToken = (await token('admin@demo.city'));
  for (const caller of CALLERS) callerTokens.set(caller, await caller.signIn());
});
afterAll(async () => { await t?.close(); });

/**
 * What an answer is, in the table's terms: a refusal by its error's code (and by the status, on
 * REST and when GraphQL answers no data; a GraphQL query of one record answers a null record and
 * the error with 200).
 */
function outcomeOf(door: Door, answer: Answer, fixture: Fixture, listed: (body: any) => number[]): Outcome | string {
  const errors = answer.body?.errors;
  if (answer.status >= 200 && answer.status < 300 && !errors) {
    if (!door.listOf) return 'ok';
    const target = door.name.startsWith('share') ? fixture.ticket : door.name.includes('component') ? fixture.component : fixture.board;
    return listed(answer.body).includes(target) ? 'shown' : 'hidden';
  }
  const code = errors?.[0]?.extensions?.code ?? errors?.[0]?.code;
  const refusal = Number(Object.entries(REFUSAL_CODES).find(([, known]) => known === code)?.[0]) as Outcome;
  const statusAgrees = answer.status === refusal || (answer.status === 200 && answer.body.data && Object.values(answer.body.data).every((value) => value === null));
  return refusal && statusAgrees ? refusal : `${answer.status} ${code}: ${errors?.[0]?.message}`;
}

describe.each(KINDS)('$name boards', (kind) => {
  it('every door answers each caller as the table says, and no unexpected 2xx', async () => {
    const shared = await fixtureOf(kind, `Matrix ${kind.name}`);
    const mismatches: string[] = [];
    let unexpected2xx = 0;
    let calls = 0;
    for (const door of DOORS) {
      for (const caller of CALLERS) {
        const fixture = door.fresh ? await fixtureOf(kind, `Matrix ${kind.name} ${door.name} ${caller.name}`) : shared;
        const answer = await door.call(kind, callerTokens.get(caller), fixture);
        calls++;
        const expected = expectedOf(door, kind, caller);
        const got = outcomeOf(door, answer, fixture, (body) => door.listOf!(kind, body) as number[]);
        if (answer.status < 300 && !answer.body?.errors && typeof expected === 'number') unexpected2xx++;
        if (got !== expected) mismatches.push(`${door.name} × ${caller.name}: expected ${expected}, got ${got}`);
        // a refusal tells nothing of the board
        if (typeof expected === 'number') expect(JSON.stringify(answer.body), `${door.name} × ${caller.name}`).not.toContain(`Matrix ${kind.name}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(unexpected2xx).toBe(0);
    expect(calls).toBe(DOORS.length * CALLERS.length);
  });
});
