// Deeply nested JSON on every door, and the caller's permission before anything of the request is
// validated. 10,000 nested arrays or objects (60 kB, under every size limit) used to overflow the
// stack of a recursive walk: a 500 on REST, GraphQL and the device HTTP API, an unacknowledged
// message and a closed connection over MQTT. Now it is a 400 JSON_TOO_DEEP wherever it comes in,
// MQTT drops it as a bad value, and a caller without the permission gets 403 whatever they sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE } from '../../server/auth/loginThrottle.ts';
import type { MqttListener } from '../../server/ingest/mqttListener.ts';
import { MAX_JSON_DEPTH } from '../../src/schemas/bounds.ts';
import { connectDevice, demoDevices, startListener, storedPoints, type DemoDevice } from '../support/devices.ts';
import { PASSWORD, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let admin: string;
let operator: string;
let lamp: DemoDevice;
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('admin@demo.city')).access_token;
  operator = (await t.login('operator@demo.city')).access_token;
  [lamp] = await demoDevices(t, 'Demo City', 'lighting');
  doc = (await t.send({ path: '/api/docs/json' })).body;
});
afterAll(async () => { await t?.close(); });

/** JSON text of `levels` arrays inside each other (a value no JSON.stringify could write). */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** JSON text of `levels` objects {"a": …} inside each other. */
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const DEEP = 10_000;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A raw JSON body (text), as a client sends it. */
const sendText = (method: 'GET' | 'POST', path: string, body: string, token?: string) =>
  t.send({ method, path, body, token, headers: JSON_HEADERS });

/** A GraphQL request whose variables are given as JSON text. */
const graphqlText = (token: string, query: string, variablesText = '{}') =>
  sendText('POST', '/graphql', `{"query": ${JSON.stringify(query)}, "variables": ${variablesText}}`, token);

/** The overlay image door (PUT, DELETE): a raw body of the given type. */
async function overlayImage(method: 'PUT' | 'DELETE', id: string, token: string, body?: string, type = 'application/json') {
  const response = await t.app.inject({ method, url: `/entity/${id}/overlay-image`, payload: body, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) } });
  return { status: response.statusCode, body: response.json() };
}

function expectTooDeep(answer: { status: number; body: any }, label: string) {
  expect(answer.status, label).toBe(400);
  expect(answer.body.errors[0].code, label).toBe('JSON_TOO_DEEP');
  expect(answer.body.errors[0].message, label).toMatch(`nested more than ${MAX_JSON_DEPTH} levels deep`);
}

function expectForbidden(answer: { status: number; body: any }, label: string) {
  expect(answer.status, label).toBe(403);
  expect(answer.body.errors[0].code ?? answer.body.errors[0].extensions?.code, label).toBe('FORBIDDEN');
}

/** The GraphQL error's code (errorFormatter puts it in extensions). */
const graphqlCode = (answer: { body: any }) => answer.body.errors?.[0]?.extensions?.code;

/** POST routes of the OpenAPI document, and which the operator (no permission) may not call. */
function postRoutes() {
  return Object.entries<any>(doc.paths).filter(([, methods]) => methods.post).map(([path, methods]) => ({
    path: path.replace('{token}', lamp.token),
    tag: methods.post.tags?.[0] as string,
    // kpi: the preview, for whoever may write KPIs; api-users: creating one (signing in and out are
    // open); a board's file, for whoever may change components; maintenance windows, for whoever's token allows a mode
    operatorRefused: ['watcher', 'scheduler', 'profile', 'kpi', 'maintenance_window'].includes(methods.post.tags?.[0]) || ['/api/users', '/board-media'].includes(path),
  }));
}

describe('deep JSON over REST', () => {
  it('every JSON body nested too deep is a 400 JSON_TOO_DEEP, as arrays, objects or under a field', async () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const { path } of routes) {
      for (const body of [arrays(DEEP), `{"input": ${objects(DEEP)}}`, `{"input": {"name": "x", "definition": ${arrays(MAX_JSON_DEPTH)}}}`]) {
        expectTooDeep(await sendText('POST', path, body, admin), `${path} ${body.slice(0, 30)}`);
      }
    }
  });

  it('the operator gets 403 on the doors they may not use whatever the body holds, 400 JSON_TOO_DEEP on the others', async () => {
    for (const { path, operatorRefused } of postRoutes()) {
      for (const body of [arrays(DEEP), `{"input": ${objects(DEEP)}}`]) {
        const answer = await sendText('POST', path, body, operator);
        if (operatorRefused) expectForbidden(answer, path);
        else expectTooDeep(answer, path);
      }
    }
    expectForbidden(await overlayImage('PUT', '1', operator, objects(DEEP)), 'overlay image');
    expectTooDeep(await overlayImage('PUT', '1', admin, objects(DEEP)), 'overlay image');
  });

  it('a body at the bound is read as usual', async () => {
    // 64 levels in all: the body, input, definition and 61 arrays in email_body's place
    const answer = await sendText('POST', '/create-watcher', `{"input": {"name": "x", "definition": {"email_body": ${arrays(MAX_JSON_DEPTH - 3)}}}}`, admin);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('VALIDATION');
  });

  it('a too-deep sign-in counts against the sign-in throttle like malformed JSON', async () => {
    const remoteAddress = '192.0.2.64';
    for (let i = 0; i < DEFAULT_THROTTLE.perAddress; i++) {
      const answer = await t.send({ method: 'POST', path: '/auth/login', body: `{"email": "admin@demo.city", "password": ${arrays(DEEP)}}`, headers: JSON_HEADERS, remoteAddress });
      expectTooDeep(answer, 'login');
    }
    const after = await t.send({ method: 'POST', path: '/auth/login', body: { email: 'admin@demo.city', password: PASSWORD }, remoteAddress });
    expect(after.status).toBe(429);
  });
});

describe('deep JSON on the HTTP device API', () => {
  it('telemetry and attributes nested too deep are a 400 JSON_TOO_DEEP; nothing is stored and the next message is', async () => {
    for (const topic of ['telemetry', 'attributes']) {
      expectTooDeep(await sendText('POST', `/api/v1/${lamp.token}/${topic}`, `{"deep_${topic}": ${arrays(DEEP)}}`), topic);
      expectTooDeep(await sendText('POST', `/api/v1/${lamp.token}/${topic}`, `{"deep_${topic}": ${objects(DEEP)}}`), topic);
    }
    expect(await storedPoints(t, lamp.id, 'deep_telemetry')).toEqual([]);
    const good = await sendText('POST', `/api/v1/${lamp.token}/telemetry`, '{"ts": 1767225600000, "values": {"after_deep_http": 7}}');
    expect(good.status).toBe(200);
    expect((await storedPoints(t, lamp.id, 'after_deep_http')).map((point) => point.value_num)).toEqual([7]);
  });
});

describe('deep JSON as GraphQL arguments', () => {
  const attributeEdit = 'mutation($a: JSON) { update_entity_attribute(id: 1, attributes: $a) { id } }';

  it('a variable nested too deep is a 400 JSON_TOO_DEEP naming the argument for a permitted caller, 403 for the operator', async () => {
    for (const deep of [arrays(DEEP), objects(DEEP)]) {
      const cases: [string, string, boolean][] = [
        [attributeEdit, `{"a": ${deep}}`, true],
        ['mutation($a: JSON) { create_entity(attributes: $a) { id } }', `{"a": ${deep}}`, true],
        ['mutation($a: JSON) { create_kpi(definition: $a) { id } }', `{"a": ${deep}}`, true],
        ['mutation($a: JSON!) { import_entities(entities: [$a]) { rows } }', `{"a": ${deep}}`, true],
        ['mutation($a: JSON!) { import_telemetries_from_csv(id: 1, data: [$a]) { rows } }', `{"a": ${deep}}`, true],
      ];
      for (const [query, variables] of cases) {
        const permitted = await graphqlText(admin, query, variables);
        expectTooDeep({ status: permitted.status, body: { errors: [{ ...permitted.body.errors[0], code: graphqlCode(permitted) }] } }, query);
        expect(permitted.body.errors[0].extensions.params).toEqual({ limit: MAX_JSON_DEPTH });
        expectForbidden(await graphqlText(operator, query, variables), query);
      }
    }
    const answer = await graphqlText(admin, attributeEdit, `{"a": {"ok": 1, "deep": ${arrays(DEEP)}}}`);
    expect(answer.body.errors[0].extensions.field).toBe('attributes');
  });

  it('an inline literal nested too deep is refused the same way; one past the token limit is refused as a document', async () => {
    for (const literal of [arrays(MAX_JSON_DEPTH + 1), arrays(900), '{a:'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1)]) {
      const query = `mutation { update_entity_attribute(id: 1, attributes: ${literal}) { id } }`;
      const permitted = await graphqlText(admin, query);
      expect(permitted.status, literal.slice(0, 20)).toBe(400);
      expect(graphqlCode(permitted)).toBe('JSON_TOO_DEEP');
      expectForbidden(await graphqlText(operator, query), literal.slice(0, 20));
    }
    for (const token of [admin, operator]) {
      const huge = await graphqlText(token, `mutation { update_entity_attribute(id: 1, attributes: ${arrays(DEEP)}) { id } }`);
      expect(huge.status).toBe(400);
      expect(graphqlCode(huge)).toBe('GRAPHQL_VALIDATION');
    }
  });

  it('arguments nesting as deep as the bound pass, counted from the arguments as a REST body is from the body', async () => {
    // the arguments, attributes, one attribute and the arrays inside it: 64 levels, then 65
    const atBound = await graphqlText(admin, attributeEdit, `{"a": {"at_bound": ${arrays(MAX_JSON_DEPTH - 2)}}}`);
    expect(atBound.status).toBe(200);
    expect(atBound.body.data.update_entity_attribute.id).toBe('1');
    const overBound = await graphqlText(admin, attributeEdit, `{"a": {"over_bound": ${arrays(MAX_JSON_DEPTH - 1)}}}`);
    expect(graphqlCode(overBound)).toBe('JSON_TOO_DEEP');
  });

  it('every argument of type JSON, on every query and mutation, refuses deep JSON with a 4xx (never a 500)', async () => {
    const fieldsOf = async (type: string) =>
      (await graphqlText(admin, `{ __type(name: "${type}") { fields { name args { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`)).body.data.__type.fields as any[];
    const named = (type: any): string => type.name ?? named(type.ofType);
    const declared = (type: any): string => (type.kind === 'NON_NULL' ? `${declared(type.ofType)}!` : type.kind === 'LIST' ? `[${declared(type.ofType)}]` : type.name);
    const placeholder: Record<string, string> = { ID: '"1"', Int: '1', Float: '1', String: '"x"', Boolean: 'false' };
    let sent = 0;
    for (const [operation, fields] of [['query', await fieldsOf('Query')], ['mutation', await fieldsOf('Mutation')]] as const) {
      for (const field of fields.filter((f) => f.args.some((arg: any) => named(arg.type) === 'JSON'))) {
        const variables = field.args.map((arg: any) => `"${arg.name}": ${named(arg.type) === 'JSON' ? (declared(arg.type).startsWith('[') ? `[${arrays(DEEP)}]` : arrays(DEEP)) : placeholder[named(arg.type)] ?? 'null'}`);
        const query = `${operation}(${field.args.map((arg: any) => `$${arg.name}: ${declared(arg.type)}`).join(', ')}) { ${field.name}(${field.args.map((arg: any) => `${arg.name}: $${arg.name}`).join(', ')}) { __typename } }`;
        for (const token of [admin, operator]) {
          const answer = await graphqlText(token, query, `{${variables.join(', ')}}`);
          sent++;
          const label = `${field.name} as ${token === admin ? 'admin' : 'operator'}`;
          expect(answer.status, label).toBeGreaterThanOrEqual(400);
          expect(answer.status, label).toBeLessThan(500);
          expect(['JSON_TOO_DEEP', 'FORBIDDEN'], label).toContain(graphqlCode(answer));
          if (token === admin) expect(graphqlCode(answer), label).toBe('JSON_TOO_DEEP');
        }
      }
    }
    expect(sent).toBeGreaterThan(20);
  });
});

describe('deep JSON over MQTT', () => {
  let listener: MqttListener;
  beforeAll(async () => { listener = await startListener(t); });
  afterAll(async () => { await listener?.close(); });

  it('a QoS 1 message nested too deep is acknowledged and dropped as a bad value; the device stays connected and its next message is stored', async () => {
    const client = await connectDevice(listener.port, lamp.token);
    let closed = false;
    client.on('close', () => { closed = true; });
    const before = t.app.ingestion.problems.totals().too_deep ?? 0;
    for (const deep of [arrays(DEEP), objects(DEEP)]) {
      for (const [topic, payload] of [['v1/devices/me/telemetry', `{"deep_mqtt": ${deep}}`], ['v1/devices/me/attributes', `{"deep_mqtt": ${deep}}`]]) {
        // publishAsync settles on the PUBACK; a dropped connection would reject it or leave it waiting
        const acknowledged = await Promise.race([
          client.publishAsync(topic, payload, { qos: 1 }).then(() => true, () => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
        ]);
        expect(acknowledged, topic).toBe(true);
      }
    }
    expect(t.app.ingestion.problems.totals().too_deep).toBe(before + 4);
    expect(closed).toBe(false);
    expect(client.connected).toBe(true);
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_767_225_600_000, values: { after_deep_mqtt: 5 } }), { qos: 1 });
    expect((await storedPoints(t, lamp.id, 'after_deep_mqtt')).map((point) => point.value_num)).toEqual([5]);
    expect(await storedPoints(t, lamp.id, 'deep_mqtt')).toEqual([]);
    await client.endAsync();
  });
});

describe('permission before validation', () => {
  it('REST: the operator gets 403 for any body, malformed, empty or of the wrong type, on a door they may not use', async () => {
    for (const [body, type] of [['{}', 'application/json'], ['{"input":', 'application/json'], ['', 'application/json'], ['hello', 'text/plain']]) {
      const answer = await t.send({ method: 'POST', path: '/create-watcher', body, token: operator, headers: { 'content-type': type } });
      expectForbidden(answer, `${type} ${body}`);
      expect(answer.body.errors[0].params).toEqual({ permission: 'watcher.*' });
    }
    expectForbidden(await t.get('/scheduler-list?page=nope&per_page=-1', operator), 'scheduler list');
    expectForbidden(await t.get('/public-api-board-list?group_ids=x', operator), 'public-API board list');
    expectForbidden(await overlayImage('PUT', 'abc', operator, 'not an image', 'text/plain'), 'overlay');
    expectForbidden(await overlayImage('DELETE', 'abc', operator), 'overlay delete');
    // …while a permitted caller still has the body checked
    const validation = await t.post('/create-watcher', {}, admin);
    expect(validation.status).toBe(400);
    expect(validation.body.errors[0]).toMatchObject({ code: 'VALIDATION', field: 'input' });
  });

  it('GraphQL: the operator gets 403 before the arguments are checked', async () => {
    for (const query of [
      'mutation { update_entity_attribute(id: "abc") { id } }',
      'mutation { rotate_entity_credentials(id: "abc") { id } }',
      'mutation { import_telemetries_from_csv(id: "abc", data: []) { rows } }',
      'mutation { import_entities(entities: []) { rows } }',
      'mutation { create_watcher(name: "") { id } }',
      '{ entity_credentials(id: "abc") { id } }',
    ]) {
      expectForbidden(await graphqlText(operator, query), query);
    }
    const validation = await graphqlText(admin, 'mutation { update_entity_attribute(id: "abc") { id } }');
    expect(validation.status).toBe(400);
    expect(graphqlCode(validation)).toBe('VALIDATION');
  });
});
