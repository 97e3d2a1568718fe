// No answer is unbounded in bytes: every GET door of the OpenAPI document and every GraphQL query
// field, asked for all it holds from a server whose answers may hold 1,000 characters, answers
// within that or with 400 ANSWER_TOO_LARGE (never a 500, never more); the same requests on a
// server at the usual limit answer in full, so nothing is lost but the one answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TOO_LARGE } from '../../server/errors.ts';
import { startTestApp, type TestApp } from './harness.ts';

const LIMIT = 1_000;
/** The largest page a list door gives. */
const MAX_PAGE = 500;
let full: TestApp;
let bounded: TestApp;
let token: string;
/** Values for the required arguments of the doors, from the demo data. */
let samples: Record<string, string | number>;

beforeAll(async () => {
  full = await startTestApp();
  bounded = await startTestApp({ db: full.db, maxAnswerChars: LIMIT });
  token = (await full.login('admin@demo.city')).access_token;
  const [entity] = (await full.get('/entity-list', token)).body;
  const [kpi] = (await full.get('/kpi-list', token)).body;
  const [board] = (await full.get('/board-list', token)).body;
  const [group] = (await full.get('/group-list', token)).body;
  samples = { id: entity.id, entity_id: entity.id, group: group.id, board_id: board.id, kind: 'performance', per_page: MAX_PAGE, kpi: kpi.id };
});
afterAll(async () => {
  await bounded?.close();
  await full?.close();
});

/** Whether an answer keeps the bound: within it, or the 400 that says it would not be. */
function expectBounded(answer: { status: number; body: any }, raw: string, what: string): boolean {
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status === 400 && JSON.stringify(answer.body).includes('ANSWER_TOO_LARGE')) {
    const error = answer.body.errors[0];
    expect(error.message, what).toBe(ANSWER_TOO_LARGE);
    expect(error.params ?? error.extensions.params, what).toEqual({ limit: LIMIT });
    return true;
  }
  expect(raw.length, what).toBeLessThanOrEqual(LIMIT);
  return false;
}

describe('every door has a byte bound', () => {
  it('every GET route of the OpenAPI document, asked for its largest page', async () => {
    const doc = (await full.send({ path: '/api/docs/json' })).body;
    const tooLarge: string[] = [];
    let walked = 0;
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      const operation = methods.get;
      if (!operation || path.startsWith('/api/docs')) continue;
      const parameters: any[] = operation.parameters ?? [];
      const query = parameters.filter((parameter) => parameter.in === 'query' && (parameter.required || parameter.name === 'per_page'))
        .map((parameter) => `${parameter.name}=${encodeURIComponent(String((path === '/kpi-data' && parameter.name === 'id' ? samples.kpi : samples[parameter.name]) ?? 1))}`);
      const url = `${path.replace(/\{(\w+)\}/g, (_, name: string) => String(samples[name] ?? 1))}${query.length ? `?${query.join('&')}` : ''}`;
      const answer = await bounded.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      walked++;
      let body: unknown = answer.body;
      try { body = answer.json(); } catch { /* a file */ }
      if (!String(answer.headers['content-type']).startsWith('application/json')) continue; // files: bounded by their upload limits
      if (expectBounded({ status: answer.statusCode, body }, answer.body, `GET ${url}`)) {
        tooLarge.push(path);
        const whole = await full.get(url, token);
        expect(whole.status, `GET ${url} at the usual limit`).toBe(200);
      }
    }
    expect(walked).toBeGreaterThan(20);
    // the engine's lists and the doors beside it, each past 1,000 characters in the demo
    expect(tooLarge).toEqual(expect.arrayContaining(['/entity-list', '/kpi-list', '/entity-type-list', '/map-features', '/public-api-component-list', '/kpi-data']));
  });

  it('every GraphQL query field, with every scalar of what it answers', async () => {
    const graphql = (app: TestApp, query: string) => app.app.inject({ method: 'POST', url: '/graphql', payload: { query }, headers: { authorization: `Bearer ${token}` } });
    const introspection = (await graphql(full, '{ __schema { queryType { fields { name args { name type { kind } } type { ...T } } } types { name fields { name type { ...T } } } } } fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }')).json();
    const types = new Map<string, { name: string; type: any }[]>(introspection.data.__schema.types.map((type: any) => [type.name, type.fields ?? []]));
    const named = (type: any): any => (type.ofType ? named(type.ofType) : type);
    const tooLarge: string[] = [];
    let walked = 0;
    /** Every scalar of a type, and of the objects it holds, two levels down. */
    const selection = (type: any, depth = 0): string => {
      const children = (types.get(named(type).name) ?? []).flatMap((child) => {
        if (['SCALAR', 'ENUM'].includes(named(child.type).kind)) return [child.name];
        const inner = depth < 2 ? selection(child.type, depth + 1) : '';
        return inner ? [`${child.name} ${inner}`] : [];
      });
      return children.length ? `{ ${children.join(' ')} }` : '';
    };
    for (const field of introspection.data.__schema.queryType.fields) {
      const returned = named(field.type);
      const selected = returned.kind === 'OBJECT' ? selection(field.type) : '';
      if (returned.kind === 'OBJECT' && !selected) continue;
      const args = field.args.filter((arg: any) => arg.type.kind === 'NON_NULL' || arg.name === 'per_page').map((arg: any) => `${arg.name}: ${JSON.stringify(samples[arg.name] ?? 1)}`);
      const query = `{ ${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selected} }`;
      const answer = await graphql(bounded, query);
      walked++;
      if (expectBounded({ status: answer.statusCode, body: answer.json() }, answer.body, query)) {
        tooLarge.push(field.name);
        const whole = await graphql(full, query);
        expect(whole.json().errors, `${query} at the usual limit`).toBeUndefined();
      }
    }
    expect(walked).toBeGreaterThan(20);
    expect(tooLarge).toEqual(expect.arrayContaining(['entity_list', 'kpi_list', 'public_api_component_list', 'entity_tree']));
  });
});
