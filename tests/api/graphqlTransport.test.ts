// A client's mistakes on /graphql are the client's: every malformed, oversized or mistyped request
// (POST and GET) answers 400, 413 or 415 in the GraphQL error shape with a stable code, the same
// code REST gives the same mistake; every frame outside the graphql-ws protocol on the WebSocket
// is answered by the protocol (a 44xx close, or an `error` message for a bad operation). None is
// a 500 or logged as a server failure, and the app keeps serving afterwards.
import { parse } from 'graphql';
import { GRAPHQL_TRANSPORT_WS_PROTOCOL } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { GRAPHQL_LIMITS } from '../../server/graphql/limits.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
let wsUrl: string;
let tenantId: string;
/** Every line the server logged; a client's mistake never makes an error-level one. */
const logLines: { level: number; msg?: string; err?: unknown }[] = [];

beforeAll(async () => {
  t = await startTestApp({ logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line)) } } });
  token = (await t.login('admin@demo.city')).access_token;
  tenantId = (await t.get('/tenant', token)).body.id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
});
afterAll(async () => { await t?.close(); });

const serverFailures = () => logLines.filter((line) => line.level >= 50);

/** Nothing a client may see of the server's inside. */
function expectNoInternals(body: unknown) {
  expect(JSON.stringify(body)).not.toMatch(/Something went wrong|request_id|INTERNAL|at [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\.js:\d+|stack|TypeError|Cannot read/i);
}

/** The GraphQL error shape with one code on every error; answers the first error's code. */
function expectGraphqlError(answer: { status: number; body: any }, status: number, code: string, label: string) {
  expect(answer.status, label).toBe(status);
  expect(answer.body?.data, label).toBeNull();
  expect(answer.body.errors.length, label).toBeGreaterThan(0);
  for (const error of answer.body.errors) {
    expect(typeof error.message, label).toBe('string');
    expect(error.extensions?.code, label).toBe(code);
  }
  expectNoInternals(answer.body);
}

const GOOD_QUERY = '{ entity_type_group_list { id } }';
/** The good query as a JSON syntax tree: text graphql-js cannot parse, which mercurius would run. */
const JSON_SYNTAX_TREE = JSON.stringify(parse(GOOD_QUERY, { noLocation: true }));
const graphqlPost = (body: unknown, headers?: Record<string, string>) => t.send({ method: 'POST', path: '/graphql', token, body, headers });
const graphqlGet = (params: Record<string, string>) =>
  t.send({ path: `/graphql${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ''}`, token });

async function expectServing() {
  const answer = await graphqlPost({ query: GOOD_QUERY });
  expect(answer.status).toBe(200);
  expect(answer.body.data.entity_type_group_list.length).toBeGreaterThan(0);
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('POST /graphql: mistakes Fastify classifies', () => {
  // Each body is also sent to a REST door, which must give the same status and code.
  const cases: { label: string; body: string; headers: Record<string, string>; status: number; code: string }[] = [
    { label: 'truncated JSON', body: `{"query": "${GOOD_QUERY}"`, headers: JSON_TYPE, status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    { label: 'malformed JSON', body: '{query: {', headers: JSON_TYPE, status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    { label: 'an empty JSON body', body: '', headers: JSON_TYPE, status: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' },
    { label: 'a __proto__ key', body: `{"query": "${GOOD_QUERY}", "__proto__": {"isAdmin": true}}`, headers: JSON_TYPE, status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    { label: 'a constructor.prototype key', body: `{"query": "${GOOD_QUERY}", "constructor": {"prototype": {"isAdmin": true}}}`, headers: JSON_TYPE, status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    { label: 'XML', body: '<query>{ entity_type_group_list { id } }</query>', headers: { 'content-type': 'application/xml' }, status: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' },
    { label: 'a form', body: `query=${encodeURIComponent(GOOD_QUERY)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' },
    { label: 'multipart', body: `--b\r\nContent-Disposition: form-data; name="query"\r\n\r\n${GOOD_QUERY}\r\n--b--\r\n`, headers: { 'content-type': 'multipart/form-data; boundary=b' }, status: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' },
    { label: 'a body over 512 kB', body: JSON.stringify({ query: `#${'x'.repeat(600_000)}\n${GOOD_QUERY}` }), headers: JSON_TYPE, status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
    { label: '1.5 MB of comments', body: JSON.stringify({ query: `${'# comment\n'.repeat(150_000)}${GOOD_QUERY}` }), headers: JSON_TYPE, status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
  ];

  it.each(cases)('$label: $status $code, as REST answers it, and nothing logged as a failure', async ({ label, body, headers, status, code }) => {
    const before = serverFailures().length;
    const answer = await graphqlPost(body, headers);
    expectGraphqlError(answer, status, code, label);
    expect(answer.body.errors).toHaveLength(1);
    const rest = await t.send({ method: 'POST', path: '/update-password', token, body, headers });
    expect(rest.status, `REST ${label}`).toBe(status);
    expect(rest.body.errors[0].code, `REST ${label}`).toBe(code);
    expect(serverFailures().slice(before)).toEqual([]);
    await expectServing();
  });
});

describe('POST /graphql: a request that is not a GraphQL request', () => {
  const tokens = Array.from({ length: 50_000 }, () => 'id').join(' ');
  const cases: { label: string; body: unknown; message?: RegExp }[] = [
    { label: 'a 50,000-token query', body: { query: `{ entity_type_group_list { ${tokens} } }` }, message: /tokens/ },
    { label: 'a query that is a number', body: { query: 5 } },
    { label: 'a query that is an object', body: { query: { kind: 'Document', definitions: [] } } },
    { label: 'a query that is a JSON syntax tree', body: { query: JSON_SYNTAX_TREE }, message: /Syntax Error/ },
    { label: 'a query that is JSON null', body: { query: 'null' } },
    { label: 'no query', body: {} },
    { label: 'an empty query', body: { query: '' } },
    { label: 'variables that are a number', body: { query: GOOD_QUERY, variables: 5 } },
    { label: 'variables that are a list', body: { query: GOOD_QUERY, variables: [1] } },
    { label: 'variables that are a string', body: { query: GOOD_QUERY, variables: '{}' } },
    { label: 'an operationName that matches nothing', body: { query: `query A ${GOOD_QUERY}`, operationName: 'B' }, message: /Unknown operation named "B"/ },
    { label: 'two operations and no operationName', body: { query: `query A ${GOOD_QUERY} query B ${GOOD_QUERY}` }, message: /operation name/ },
  ];

  it.each(cases)('$label: 400 GRAPHQL_VALIDATION', async ({ label, body, message }) => {
    const before = serverFailures().length;
    const answer = await graphqlPost(body);
    expectGraphqlError(answer, 400, 'GRAPHQL_VALIDATION', label);
    if (message) expect(answer.body.errors[0].message).toMatch(message);
    expect(serverFailures().slice(before)).toEqual([]);
    await expectServing();
  });
});

describe('GET /graphql', () => {
  const tokens = Array.from({ length: 50_000 }, () => 'id').join(' ');
  it('answers a good query', async () => {
    const answer = await graphqlGet({ query: GOOD_QUERY });
    expect(answer.status).toBe(200);
    expect(answer.body.data.entity_type_group_list.length).toBeGreaterThan(0);
    const named = await graphqlGet({ query: `query A ${GOOD_QUERY} query B { user_list { id } }`, operationName: 'A', variables: '{}' });
    expect(named.status).toBe(200);
    expect(named.body.data.entity_type_group_list.length).toBeGreaterThan(0);
  });

  const cases: { label: string; params: Record<string, string>; message?: RegExp }[] = [
    { label: 'no query', params: {} },
    { label: 'an empty query', params: { query: '' } },
    { label: 'a malformed query', params: { query: '{ entity_type_group_list { id }' }, message: /Syntax Error/ },
    { label: 'a 50,000-token query', params: { query: `{ entity_type_group_list { ${tokens} } }` }, message: /tokens/ },
    { label: 'a query that is a JSON syntax tree', params: { query: JSON_SYNTAX_TREE }, message: /Syntax Error/ },
    { label: 'a query that is a number', params: { query: '5' } },
    { label: 'malformed variables', params: { query: GOOD_QUERY, variables: '{x' } },
    { label: 'truncated variables', params: { query: GOOD_QUERY, variables: '{"a": 1' } },
    { label: 'malformed extensions', params: { query: GOOD_QUERY, extensions: '{x' } },
    { label: 'variables with a __proto__ key', params: { query: GOOD_QUERY, variables: '{"__proto__": {"isAdmin": true}}' } },
    { label: 'extensions with a constructor.prototype key', params: { query: GOOD_QUERY, extensions: '{"constructor": {"prototype": {"isAdmin": true}}}' } },
    { label: 'variables that are a number', params: { query: GOOD_QUERY, variables: '5' } },
    { label: 'variables that are a string', params: { query: GOOD_QUERY, variables: '"x"' } },
    { label: 'variables that are a list', params: { query: 'query($id: ID) { entity_tree(id: $id) { id } }', variables: '[1]' } },
    { label: 'extensions that are a list', params: { query: GOOD_QUERY, extensions: '[]' } },
    { label: 'an operationName that matches nothing', params: { query: `query A ${GOOD_QUERY}`, operationName: 'B' }, message: /Unknown operation named "B"/ },
    { label: 'two operations and no operationName', params: { query: `query A ${GOOD_QUERY} query B ${GOOD_QUERY}` }, message: /operation name/ },
  ];

  it.each(cases)('$label: 400 GRAPHQL_VALIDATION', async ({ label, params, message }) => {
    const before = serverFailures().length;
    const answer = await graphqlGet(params);
    expectGraphqlError(answer, 400, 'GRAPHQL_VALIDATION', label);
    if (message) expect(answer.body.errors[0].message).toMatch(message);
    expect(serverFailures().slice(before)).toEqual([]);
    await expectServing();
  });

  it('a query given twice: 400 GRAPHQL_VALIDATION', async () => {
    const answer = await t.send({ path: `/graphql?query=${encodeURIComponent(GOOD_QUERY)}&query=${encodeURIComponent(GOOD_QUERY)}`, token });
    expectGraphqlError(answer, 400, 'GRAPHQL_VALIDATION', 'query twice');
  });

  it('HEAD (served as GET) without a query or with bad variables: 400', async () => {
    const before = serverFailures().length;
    for (const url of ['/graphql', `/graphql?query=${encodeURIComponent(GOOD_QUERY)}&variables=5`]) {
      const answer = await t.app.inject({ method: 'HEAD', url, headers: { authorization: `Bearer ${token}` } });
      expect(answer.statusCode, url).toBe(400);
    }
    expect(serverFailures().slice(before)).toEqual([]);
  });
});

interface Connection {
  socket: WebSocket;
  received: any[];
  /** The close code and reason, or 'open' if the server has not closed the socket within the wait. */
  closed(waitMs?: number): Promise<{ code: number; reason: string } | 'open'>;
}

async function open(protocols: string[] = [GRAPHQL_TRANSPORT_WS_PROTOCOL]): Promise<Connection> {
  const socket = new WebSocket(wsUrl, protocols);
  const received: any[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data))));
  socket.on('error', () => { /* the close says what happened */ });
  const closing = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise((resolve) => socket.once('open', resolve));
  return {
    socket,
    received,
    closed: (waitMs = 3000) => Promise.race([closing, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), waitMs))]),
  };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function acknowledged(): Promise<Connection> {
  const connection = await open();
  connection.socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await until(() => connection.received.some((message) => message.type === 'connection_ack'));
  return connection;
}

const subscribeMessage = (id: string, query: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, type: 'subscribe', payload: { query, ...extra } });
const ENTITY_UPDATED = 'subscription { entity_updated(entity_ids: ["7"]) { id diff } }';

async function publishToEntity7() {
  await t.app.live.publishEntityUpdate(tenantId, { id: 7, entity_type_id: 1, diff: { attributes: { dim_level: 40 } }, updated_at: 'now' });
}

describe('GraphQL WebSocket: frames outside the protocol', () => {
  let bystander: Connection;
  beforeAll(async () => {
    // A well-behaved client that must keep being served while the others misbehave.
    bystander = await acknowledged();
    bystander.socket.send(subscribeMessage('live', ENTITY_UPDATED));
    await new Promise((r) => setTimeout(r, 200));
  });
  afterAll(() => bystander?.socket.close());

  const BEFORE_INIT: { label: string; frame: string | Buffer }[] = [
    { label: 'text that is not JSON', frame: 'hello' },
    { label: 'truncated JSON', frame: '{"type": "connection_init", "payload": {' },
    { label: 'a binary frame', frame: Buffer.from(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer x' } })) },
    { label: 'JSON null', frame: 'null' },
    { label: 'a JSON list', frame: '[]' },
    { label: 'a JSON number', frame: '42' },
    { label: 'no type', frame: '{}' },
    { label: 'an unknown type', frame: '{"type": "hello"}' },
    { label: 'a message only the server sends', frame: '{"type": "next", "id": "1", "payload": {}}' },
    { label: 'a __proto__ key', frame: '{"type": "connection_init", "payload": {"__proto__": {"isAdmin": true}}}' },
    { label: 'a constructor.prototype key', frame: '{"type": "connection_init", "payload": {"constructor": {"prototype": {"isAdmin": true}}}}' },
    { label: 'a connection_init payload that is a string', frame: '{"type": "connection_init", "payload": "Bearer x"}' },
  ];

  it.each(BEFORE_INIT)('$label: closed with 4400', async ({ label, frame }) => {
    const connection = await open();
    connection.socket.send(frame);
    expect(await connection.closed(), label).toMatchObject({ code: 4400 });
    expect(connection.received, label).toEqual([]);
  });

  const AFTER_ACK: { label: string; frame: string }[] = [
    { label: 'a subscribe without payload', frame: '{"id": "1", "type": "subscribe"}' },
    { label: 'a subscribe without id', frame: JSON.stringify({ type: 'subscribe', payload: { query: ENTITY_UPDATED } }) },
    { label: 'a subscribe whose query is not a string', frame: JSON.stringify({ id: '1', type: 'subscribe', payload: { query: { kind: 'Document', definitions: [] } } }) },
    { label: 'a subscribe whose variables are a list', frame: subscribeMessage('1', ENTITY_UPDATED, { variables: [1] }) },
    { label: 'a subscribe with a __proto__ key in its variables', frame: `{"id": "1", "type": "subscribe", "payload": {"query": "${ENTITY_UPDATED.replace(/"/g, '\\"')}", "variables": {"__proto__": {"x": 1}}}}` },
    { label: 'a complete without id', frame: '{"type": "complete"}' },
    { label: 'a connection_terminate (not in the protocol)', frame: '{"type": "connection_terminate"}' },
  ];

  it.each(AFTER_ACK)('$label: closed with 4400', async ({ label, frame }) => {
    const connection = await acknowledged();
    connection.socket.send(frame);
    expect(await connection.closed(), label).toMatchObject({ code: 4400 });
    expect(connection.received.filter((message) => message.type !== 'connection_ack' && message.type !== 'ping'), label).toEqual([]);
  });

  it('a subscribe before connection_init: closed with 4401', async () => {
    const connection = await open();
    connection.socket.send(subscribeMessage('1', ENTITY_UPDATED));
    expect(await connection.closed()).toMatchObject({ code: 4401 });
  });

  it('a second connection_init: closed with 4429', async () => {
    const connection = await acknowledged();
    connection.socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
    expect(await connection.closed()).toMatchObject({ code: 4429 });
  });

  it('a subscribe with the id of a running one: closed with 4409', async () => {
    const connection = await acknowledged();
    connection.socket.send(subscribeMessage('same', ENTITY_UPDATED));
    await new Promise((r) => setTimeout(r, 200));
    connection.socket.send(subscribeMessage('same', ENTITY_UPDATED));
    expect(await connection.closed()).toMatchObject({ code: 4409 });
  });

  it('an id is free again once its subscription completed', async () => {
    const connection = await acknowledged();
    connection.socket.send(subscribeMessage('again', ENTITY_UPDATED));
    await new Promise((r) => setTimeout(r, 200));
    connection.socket.send(JSON.stringify({ id: 'again', type: 'complete' }));
    connection.socket.send(subscribeMessage('again', ENTITY_UPDATED));
    await new Promise((r) => setTimeout(r, 200));
    await publishToEntity7();
    await until(() => connection.received.some((message) => message.type === 'next' && message.id === 'again'));
    // Nothing more of the completed one: no complete that would end the new one in the client.
    expect(connection.received.filter((message) => message.id === 'again' && message.type !== 'next')).toEqual([]);
    expect(await connection.closed(100)).toBe('open');
    connection.socket.close();
  });

  it('a connection_init without a valid token: closed with 4403', async () => {
    for (const payload of [{}, { authorization: 'Bearer nope' }]) {
      const connection = await open();
      connection.socket.send(JSON.stringify({ type: 'connection_init', payload }));
      expect(await connection.closed()).toMatchObject({ code: 4403 });
      expect(connection.received).toEqual([]);
    }
  });

  it('a client without the graphql-transport-ws subprotocol: closed with 4406', async () => {
    for (const protocols of [[], ['chat']]) {
      const connection = await open(protocols);
      expect(await connection.closed()).toMatchObject({ code: 4406 });
    }
  });

  it('a frame over 1 MB: closed with 1009 (message too big), not logged as a failure', async () => {
    const before = serverFailures().length;
    const connection = await acknowledged();
    connection.socket.send(subscribeMessage('big', `${'# comment\n'.repeat(150_000)}${ENTITY_UPDATED}`));
    expect(await connection.closed()).toMatchObject({ code: 1009 });
    await new Promise((r) => setTimeout(r, 100));
    expect(serverFailures().slice(before)).toEqual([]);
  });

  it('logged none of it as a server failure, and the well-behaved client is still served', async () => {
    expect(serverFailures()).toEqual([]);
    await publishToEntity7();
    await until(() => bystander.received.some((message) => message.type === 'next' && message.id === 'live'));
    expect(await bystander.closed(50)).toBe('open');
    await expectServing();
  });
});

describe('GraphQL WebSocket: a subscribe whose operation does not fit', () => {
  const tokens = Array.from({ length: 50_000 }, () => 'id').join(' ');
  let deep = '{ a }';
  for (let i = 0; i < GRAPHQL_LIMITS.maxDepth + 1; i++) deep = `{ a ${deep} }`;
  const cases: { label: string; payload: Record<string, unknown>; message?: RegExp }[] = [
    { label: 'a malformed document', payload: { query: 'subscription { entity_updated { id }' }, message: /Syntax Error/ },
    { label: 'a 50,000-token document', payload: { query: `subscription { entity_updated { ${tokens} } }` }, message: /tokens/ },
    { label: 'a too deep document', payload: { query: `subscription { entity_updated { diff ${deep} } }` }, message: /depth/i },
    { label: 'an unknown field', payload: { query: 'subscription { no_such_field { id } }' }, message: /no_such_field/ },
    { label: 'an operationName that matches nothing', payload: { query: `subscription A ${ENTITY_UPDATED.slice('subscription'.length)}`, operationName: 'B' }, message: /Unknown operation named "B"/ },
    { label: 'a query (not a subscription)', payload: { query: GOOD_QUERY }, message: /subscription/i },
    { label: 'variables of the wrong type', payload: { query: 'subscription($ids: [ID!]) { entity_updated(entity_ids: $ids) { id } }', variables: { ids: { a: 1 } } }, message: /\$ids/ },
    { label: 'a JSON syntax tree as its query', payload: { query: JSON_SYNTAX_TREE }, message: /Syntax Error/ },
  ];

  it.each(cases)('$label: an error message with GRAPHQL_VALIDATION, and the socket serves on', async ({ label, payload, message }) => {
    const before = serverFailures().length;
    const connection = await acknowledged();
    connection.socket.send(JSON.stringify({ id: 'bad', type: 'subscribe', payload }));
    await until(() => connection.received.some((received) => received.id === 'bad'));
    const [answer] = connection.received.filter((received) => received.id === 'bad');
    expect(answer.type, label).toBe('error');
    expect(answer.payload.length, label).toBeGreaterThan(0);
    for (const error of answer.payload) expect(error.extensions?.code, label).toBe('GRAPHQL_VALIDATION');
    if (message) expect(answer.payload.map((error: { message: string }) => error.message).join(' '), label).toMatch(message);
    expectNoInternals(answer);
    // The same socket still serves a good subscription, under the same id.
    connection.socket.send(subscribeMessage('bad', ENTITY_UPDATED));
    await new Promise((r) => setTimeout(r, 200));
    await publishToEntity7();
    await until(() => connection.received.some((received) => received.type === 'next' && received.id === 'bad'));
    expect(await connection.closed(50), label).toBe('open');
    connection.socket.close();
    expect(serverFailures().slice(before)).toEqual([]);
  });
});
