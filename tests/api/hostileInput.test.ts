// Hostile input on every door: each route of the OpenAPI document and each GraphQL field gets
// huge, negative, fractional and non-finite numbers, NUL, 100k-character strings, arrays and
// prototype keys. Every answer is a 4xx (never a 500), says nothing about the server's inside,
// and the server is alive afterwards. A schema lint keeps every declared field bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schemas/ajvInstance.ts';
import { INT4_MAX, NO_NUL } from '../../src/schemas/bounds.ts';
import { MODEL_SCHEMAS } from '../../src/schemas/models.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('admin@demo.city')).access_token;
  doc = (await t.send({ path: '/api/docs/json' })).body;
});
afterAll(async () => { await t?.close(); });

const HUGE = 'x'.repeat(100_000);
/** Values no bounded field may accept, as query/path text and as JSON body values. */
const HOSTILE_TEXT = ['99999999999999999999', '-99999999999999999999', '1e308', '-1e308', '2147483648', '1.5', '-1.5',
  'Infinity', '-Infinity', 'NaN', '1e999', '\u0000', `a\u0000b`, HUGE, '__proto__', 'constructor'];
const HOSTILE_JSON: unknown[] = [1e20, -1e20, 1.5, 2147483648, '\u0000', HUGE, [HUGE], Array(10_000).fill(1), { __proto__: { admin: true } },
  JSON.parse('{"__proto__": {"polluted": true}}'), { constructor: { prototype: { polluted: true } } }, null, true];

/** Nothing a client may see of the server's inside. */
function expectNoInternals(body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  expect(text).not.toMatch(/Failed query|SELECT |INSERT |UPDATE |\bparams:|at [\w.<>]+ \(|node_modules|\/work\/|server\/|\.ts:\d+|stack/i);
}

async function expectAlive() {
  expect((await t.get('/tenant', token)).status).toBe(200);
}

/** Our token everywhere but on /auth/* (signing out with it would end the session the test uses). */
const authOf = (path: string) => (path.startsWith('/auth/') ? {} : { token });

function fillPath(path: string) {
  return path.replace(/\{[^}]+\}/g, '1');
}

describe('every REST route with hostile values', () => {
  it('walks the OpenAPI document: path, query and body fields get a 4xx, never a 500', async () => {
    const routes = Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
      Object.entries<any>(methods).map(([method, operation]) => ({ path, method: method.toUpperCase() as 'GET' | 'POST', operation })));
    expect(routes.length).toBeGreaterThan(8);
    let sent = 0;
    for (const { path, method, operation } of routes) {
      if (path.startsWith('/api/docs')) continue;
      const parameters: any[] = operation.parameters ?? [];
      for (const parameter of parameters.filter((p) => p.in === 'query' || p.in === 'path')) {
        for (const value of HOSTILE_TEXT) {
          const url = parameter.in === 'path'
            ? path.replace(`{${parameter.name}}`, encodeURIComponent(value)).replace(/\{[^}]+\}/g, '1')
            : `${fillPath(path)}?${parameter.name}=${encodeURIComponent(value)}`;
          const answer = await t.send({ method, path: url, ...authOf(path), ...(method === 'POST' ? { body: {} } : {}) });
          sent++;
          // Free text may legitimately be "constructor" or "1.5"; numbers, NUL and 100k characters never are.
          const mustRefuse = parameter.schema?.type === 'integer' || value.includes('\u0000') || value.length > 10_000;
          if (mustRefuse) expect(answer.status, `${method} ${url.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, `${method} ${url.slice(0, 80)}`).toBeLessThan(500);
          expectNoInternals(answer.body);
        }
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (!body) continue;
      for (const fieldPath of leafPaths(body)) {
        for (const value of HOSTILE_JSON) {
          const payload = setAt(validSample(body), fieldPath, value);
          const answer = await t.send({ method, path: fillPath(path), ...authOf(path), body: payload });
          sent++;
          const label = `${method} ${path} ${fieldPath.join('.')} = ${JSON.stringify(value)?.slice(0, 40)}`;
          expect(answer.status, label).toBeLessThan(500);
          expectNoInternals(answer.body);
        }
      }
      // Unknown fields, a huge body of them, and prototype keys at the top level.
      const prototypeKeys = ['{"__proto__": {"isAdmin": true}}', '{"constructor": {"prototype": {"isAdmin": true}}}'];
      const manyUnknown = JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, i])));
      for (const payload of [...prototypeKeys, manyUnknown]) {
        const answer = await t.send({ method, path: fillPath(path), ...authOf(path), body: payload, headers: { 'content-type': 'application/json' } });
        sent++;
        expect(answer.status, `${method} ${path} hostile body`).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body.errors?.length ?? 1).toBeLessThanOrEqual(10);
        expect(JSON.stringify(answer.body).length).toBeLessThan(5_000);
      }
    }
    expect(sent).toBeGreaterThan(100);
    await expectAlive();
  });

  it('answers a body of 25,000 unknown fields with a short list, not every error; a 1.6 MB body with 413', async () => {
    const body = (count: number) => JSON.stringify({ input: Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_${i}`, 'x'])) });
    const headers = { 'content-type': 'application/json' };
    const many = await t.send({ method: 'POST', path: '/update-password', token, body: body(25_000), headers });
    expect(many.status).toBe(400);
    expect(many.body.errors.length).toBeLessThanOrEqual(10);
    expect(JSON.stringify(many.body).length).toBeLessThan(2_000);
    const large = body(90_000);
    expect(large.length).toBeGreaterThan(1_500_000);
    const tooLarge = await t.send({ method: 'POST', path: '/update-password', token, body: large, headers });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.errors[0].code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('gives unexpected failures the generic text, a code and the request id only', async () => {
    const answer = await t.send({ path: '/tenant', token, headers: {} });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A client cannot choose its request id (it would forge log lines).
    const forged = await t.send({ path: '/tenant', token, headers: { 'x-request-id': 'evil\nline' } });
    expect(forged.headers['x-request-id']).not.toBe('evil\nline');
  });
});

describe('every GraphQL field with hostile arguments', () => {
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

  it('walks the schema by introspection: every argument of every query field', async () => {
    const schema = await graphql('{ __schema { queryType { fields { name args { name type { kind name ofType { kind name } } } type { kind name ofType { kind name ofType { kind name } } } } } } }');
    expect(schema.status).toBe(200);
    const fields: any[] = schema.body.data.__schema.queryType.fields;
    const hostile: unknown[] = ['99999999999999999999', '-1', '1.5', 'Infinity', 'NaN', '\u0000', HUGE, 2 ** 31, -(2 ** 31) - 1, 1.5, [1, 2], { __proto__: 1 }];
    let sent = 0;
    for (const field of fields) {
      const selection = field.type.ofType?.ofType?.kind === 'OBJECT' || field.type.ofType?.kind === 'OBJECT' || field.type.kind === 'OBJECT' ? '{ id }' : '';
      for (const arg of field.args) {
        const typeName = arg.type.name ?? arg.type.ofType?.name;
        for (const value of hostile) {
          const answer = await graphql(`query($v: ${typeName}) { ${field.name}(${arg.name}: $v) ${selection} }`, { v: value });
          sent++;
          const label = `${field.name}(${arg.name}: ${JSON.stringify(value)?.slice(0, 30)})`;
          expect(answer.status, label).toBeLessThan(500);
          expectNoInternals(answer.body);
          if (answer.body.errors) expect(answer.body.errors[0].extensions?.code, label).not.toBe('INTERNAL');
        }
      }
    }
    expect(sent).toBeGreaterThan(20);
    await expectAlive();
  });

  it('a bad id is a 400 naming the argument, without SQL', async () => {
    const answer = await graphql('{ entity_tree(id: "abc") { id } }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ message: 'id must be integer', extensions: { code: 'VALIDATION', field: 'id' } });
    const huge = await graphql(`{ entity_tree(id: "${INT4_MAX + 1}") { id } }`);
    expect(huge.status).toBe(400);
    expectNoInternals(huge.body);
  });
});

describe('U+0000 in any text, on every kind of door', () => {
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });

  it('is a 400 on its field, and nothing is written: a name on REST and GraphQL, a nested text', async () => {
    const [board] = (await t.get('/board-list', token)).body;
    const [entity] = (await t.get('/entity-list', token)).body;
    const named = (name: string) => name.includes('\u0000');
    const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
      ['a component', () => graphql('mutation($b: [Int!]) { create_component(name: "Chart\\u0000", type: "richtext", definition: { html: "<p>x</p>" }, board_ids: $b) { id } }', { b: [board.id] }), 'name'],
      ['a maintenance window', () => t.post('/create-maintenance-window', { input: { name: '\u0000', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'once', starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-01-02T00:00:00Z' } } }, token), 'input.name'],
      ['a watcher', () => t.post('/create-watcher', { input: { name: 'Door\u0000', query: { key: 'door', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 0 }, entity_ids: [entity.id], interval: 3_600 } }, token), 'input.name'],
      ['a watcher\'s nested key', () => t.post('/create-watcher', { input: { name: 'Door', query: { key: 'do\u0000or', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 0 }, entity_ids: [entity.id], interval: 3_600 } }, token), 'input.query.key'],
    ];
    for (const [what, send, field] of cases) {
      const answer = await send();
      expect(answer.status, what).toBe(400);
      const error = answer.body.errors[0];
      expect(error.extensions?.code ?? error.code, what).toBe('VALIDATION');
      expect(error.extensions?.field ?? error.field, what).toBe(field);
      expect(error.message, what).toContain('must not contain NUL characters');
      expectNoInternals(answer.body);
    }
    const components = (await t.get(`/component-list?board_id=${board.id}`, token)).body as { name: string }[];
    const windows = (await t.get('/maintenance-window-list', token)).body as { name: string }[];
    const watchers = (await t.get('/watcher-list', token)).body as { name: string }[];
    expect([...components, ...windows, ...watchers].filter((row) => named(row.name) || row.name === 'Door')).toEqual([]);
    await expectAlive();
  });
});

describe('dates at both ends', () => {
  const FAR = ['9999-12-31T00:00:00Z', '2200-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '0001-01-01T00:00:00Z'];
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    t.send({ method: 'POST', path: '/graphql', token, body: { query, variables } });
  const expectDateRefused = (answer: { status: number; body: any }, field: string, what: string) => {
    expect(answer.status, what).toBe(400);
    const error = answer.body.errors[0];
    expect(error.extensions?.field ?? error.field, what).toBe(field);
    expect(error.message, what).toMatch(/must be an instant from 1970 to 2199/);
    expectNoInternals(answer.body);
  };

  it('the log list\'s time filters refuse a year out of 1970–2199 with a 400 on the argument', async () => {
    for (const argument of ['timestamp_from', 'timestamp_to']) {
      for (const value of FAR) expectDateRefused(await graphql(`query($v: String) { log_list(${argument}: $v) { data { id } } }`, { v: value }), argument, `${argument} ${value}`);
    }
  });

  it('a KPI preview, a saved KPI, a maintenance window and a scheduler refuse them too, and keep nothing', async () => {
    const kpisBefore = (await t.get('/kpi-list', token)).body.length;
    for (const value of FAR) {
      expectDateRefused(await t.post('/kpi-preview', { query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line', compare: { compare_shift: 'date', compare_from: value } } }, token), 'definition.compare.compare_from', `preview ${value}`);
      expectDateRefused(await graphql('mutation($d: JSON) { create_kpi(name: {en: "Far"}, query: [{key: "power", aggregation: "avg"}], definition: $d) { id } }', { d: { chart: 'line', compare: { compare_shift: 'date', compare_from: value } } }), 'definition.compare.compare_from', `KPI ${value}`);
      expectDateRefused(await t.post('/create-maintenance-window', { input: { name: 'Far', mode: 'notify-off', scope: 'tenant', schedule: { kind: 'once', starts_at: '2030-01-01T00:00:00Z', ends_at: value } } }, token), 'input.schedule.ends_at', `window ${value}`);
      expectDateRefused(await t.post('/create-scheduler', { input: { name: 'Far', definition: { kind: 'single', run_at: value, aggregation: 'static-value', value: 1, time_slot: 'last-week', target_attribute: 'far' } } }, token), 'input.definition.run_at', `scheduler ${value}`);
    }
    expect((await t.get('/kpi-list', token)).body).toHaveLength(kpisBefore);
    expect((await t.get('/maintenance-window-list', token)).body.filter((row: { name: string }) => row.name === 'Far')).toEqual([]);
    expect((await t.get('/scheduler-list', token)).body.filter((row: { name: string }) => row.name === 'Far')).toEqual([]);
    await expectAlive();
  });
});

describe('every text and date field of every door, one by one', () => {
  /** Every string-typed field of the OpenAPI document and of the engine's models, with where it is. */
  const stringFields = () => {
    const found: { where: string; schema: any }[] = [];
    const visit = (schema: any, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      if ([schema.type].flat().includes('string')) found.push({ where, schema });
      for (const [key, child] of Object.entries<any>(schema.properties ?? {})) visit(child, `${where}.${key}`);
      if (schema.items) visit(schema.items, `${where}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const branch of schema[key] ?? []) visit(branch, where);
      for (const key of ['then', 'else']) visit(schema[key], where);
    };
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        for (const parameter of operation.parameters ?? []) visit(parameter.schema, `${method} ${path} ${parameter.in}:${parameter.name}`);
        visit(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`);
      }
    }
    for (const [model, schema] of Object.entries(MODEL_SCHEMAS)) visit(schema, `model ${model}`);
    return found;
  };
  const ajv = createAjv();
  // A field alone, as the doors' ajv checks it (a default has no meaning at a schema's root).
  const refuses = ({ default: _default, ...schema }: any, value: unknown) => !ajv.compile(schema)(value);

  it('no text field takes U+0000, whatever its own pattern says', () => {
    const fields = stringFields();
    expect(fields.length).toBeGreaterThan(100);
    const takingNul = fields.filter(({ schema }) => !refuses({ ...schema, type: 'string' }, 'a\u0000b')).map(({ where }) => where);
    expect(takingNul).toEqual([]);
  });

  it('every date and instant names a year from 1970 to 2199, and a field named as one is declared as one', () => {
    const fields = stringFields();
    const dated = fields.filter(({ schema }) => schema.format === 'date' || schema.format === 'date-time');
    expect(dated.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const { where, schema } of dated) {
      const sample = (year: string) => (schema.format === 'date' ? `${year}-06-30` : `${year}-06-30T12:00:00Z`);
      if (refuses(schema, sample('2030'))) problems.push(`${where}: refuses 2030`);
      for (const year of ['0001', '1969', '2200', '9999']) if (!refuses(schema, sample(year))) problems.push(`${where}: takes ${year}`);
    }
    // A clock time (HH:MM, a lighting interval's from/to) is not a date; everything else so named is.
    const clockTime = (schema: any) => typeof schema.pattern === 'string' && schema.pattern.includes(':[0-5]');
    const namedAsDate = /(?:_at|date|timestamp_(?:from|to)|compare_from)$|\.(?:from|to)$/;
    for (const { where, schema } of fields) {
      if (namedAsDate.test(where) && !schema.enum && !clockTime(schema) && !['date', 'date-time'].includes(schema.format) && !schema.readOnly) problems.push(`${where}: a date without its format`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the schema lint: every declared field is bounded', () => {
  it('strings have maxLength and refuse NUL, integers have both bounds, arrays maxItems, objects are closed', () => {
    const problems: string[] = [];
    const visit = (schema: any, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.type === 'string' && !schema.enum && !schema.format) {
        if (schema.maxLength === undefined) problems.push(`${where}: string without maxLength`);
        if (!refusesNul(schema.pattern)) problems.push(`${where}: string may hold NUL`);
      }
      if (schema.type === 'integer' && (schema.minimum === undefined || schema.maximum === undefined || schema.maximum > INT4_MAX)) problems.push(`${where}: unbounded integer`);
      if (schema.type === 'array' && schema.maxItems === undefined) problems.push(`${where}: array without maxItems`);
      if (schema.type === 'object' && schema.properties && schema.additionalProperties !== false) problems.push(`${where}: open object`);
      for (const [key, child] of Object.entries<any>(schema.properties ?? {})) visit(child, `${where}.${key}`);
      if (schema.items) visit(schema.items, `${where}[]`);
    };
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        for (const parameter of operation.parameters ?? []) visit(parameter.schema, `${method} ${path} ${parameter.in}:${parameter.name}`);
        visit(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Whether a pattern keeps NUL out: it excludes \u0000 explicitly (NO_NUL), or it is anchored and
 * built only from explicit characters (no `.`, negated classes or \s \S \W \D).
 */
function refusesNul(pattern: string | undefined): boolean {
  if (!pattern) return false;
  if (pattern === NO_NUL || pattern.includes('[^\\u0000]')) return true;
  return pattern.startsWith('^') && pattern.endsWith('$') && !/\.|\[\^|\\[sSWD]/.test(pattern);
}

/** Paths of every leaf property of a JSON Schema object. */
function leafPaths(schema: any, prefix: string[] = []): string[][] {
  if (schema?.type !== 'object' || !schema.properties) return [prefix];
  return Object.entries<any>(schema.properties).flatMap(([key, child]) => leafPaths(child, [...prefix, key]));
}

/** A value that fits the schema's shape (strings, numbers, nested objects). */
function validSample(schema: any): any {
  if (schema?.type === 'object') return Object.fromEntries(Object.entries<any>(schema.properties ?? {}).map(([key, child]) => [key, validSample(child)]));
  if (schema?.type === 'integer' || schema?.type === 'number') return schema.minimum ?? 1;
  if (schema?.type === 'boolean') return false;
  return 'sample-value';
}

function setAt(target: any, path: string[], value: unknown): any {
  if (!path.length) return value;
  const copy = { ...target };
  copy[path[0]] = setAt(copy[path[0]] ?? {}, path.slice(1), value);
  return copy;
}
