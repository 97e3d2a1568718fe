// `node bench/heavy-requests.ts [--postgres]`: does one heavy client stall the others?
// While a light client asks for /tenant every 5 ms, a heavy client sends, one after another, the
// worst requests the limits allow (and some they refuse): a 0.48 MB body of unknown fields, a
// 1.7 MB one, a 1,000-alias GraphQL document, the largest allowed entity_tree document, a
// 100,000-token document, the whole entity list and its largest page, a whole page of map
// features, a 100k-character search, a year of per-lamp days in three zones whose offsets are not
// whole hours, and 10,000-level JSON on every kind of JSON door. Prints, per heavy request, its
// own time and the light client's worst and p99 latency meanwhile. Then the same requests ten at
// once, from the operator (who may read but not write): the light client's p99 and worst. Last,
// the largest public-API board the limits allow (a page of MAX_PAGE_SIZE KPI components, each
// naming a KPI of thirty days of quarter hours per lamp) read by 100 clients at once: the server's
// peak memory (RSS) and whether it is still alive.
// Goals: no allowed request delays the light client by more than 100 ms; ten at once, its p99
// stays under 250 ms; the 100 board readers leave the server alive under 1 GB of RSS, and the light
// client is delayed by at most 100 ms meanwhile.
import { readFileSync } from 'node:fs';
import { GRAPHQL_LIMITS } from '../server/graphql/limits.ts';
import { MAX_PAGE_SIZE } from '../src/schemas/fields.ts';
import { launchServer, machineLine } from './launch.ts';

const server = await launchServer({ postgres: process.argv.includes('--postgres') });
const { base, token } = server;
const signIn = async (email: string) => ((await (await fetch(`${base}/auth/login`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'demo1234' }),
})).json()) as { access_token: string }).access_token;
const operatorToken = await signIn('operator@demo.city');
const authOf = (bearer: string) => ({ authorization: `Bearer ${bearer}` });
const jsonOf = (bearer: string) => ({ ...authOf(bearer), 'content-type': 'application/json' });
const read = async <T>(path: string): Promise<T> => (await fetch(`${base}${path}`, { headers: authOf(token) })).json() as Promise<T>;
const graphql = async <T>(query: string, variables: object = {}): Promise<T> =>
  ((await (await fetch(`${base}/graphql`, { method: 'POST', headers: jsonOf(token), body: JSON.stringify({ query, variables }) })).json()) as { data: T }).data;

// ---- what the requests need: the demo's lamps, a region, a device token, KPIs -----------------------
const types = await read<{ id: number; category: string; attributes: { system_name?: string } | null }[]>('/entity-type-list');
const lampType = types.find((type) => type.category === 'lighting')!.id;
const regionType = types.find((type) => type.attributes?.system_name === 'region')!.id;
const entities = await read<{ id: number; entity_type_id: number }[]>('/entity-list');
const region = entities.find((entity) => entity.entity_type_id === regionType)!.id;
const lamp = entities.find((entity) => entity.entity_type_id === lampType)!.id;
const deviceToken = (await graphql<{ entity_credentials: { credentialsId: string } }>(`{ entity_credentials(id: ${lamp}) { credentialsId } }`)).entity_credentials.credentialsId;
const createKpi = async (definition: object, query: object[]) => Number((await graphql<{ create_kpi: { id: string } }>(
  'mutation($query: JSON, $definition: JSON) { create_kpi(name: {en: "bench"}, query: $query, definition: $definition) { id } }',
  { query, definition: { chart: 'line', ...definition } })).create_kpi.id);
const yearOfLampDays = await createKpi({ time_interval: '1d', time_range: '1y', series: 'per_entity' }, [{ key: 'power', aggregation: 'avg', entity_type_ids: [lampType] }]);

// The first start writes 30 days of demo history in the background: measure once it is written.
const pointCount = await createKpi({ time_interval: '1M', time_range: '1y' }, [{ key: 'power', aggregation: 'value_count', entity_type_ids: [lampType] }]);
const storedPoints = async () => ((await read<{ series: { data: { value: number }[] }[] }>(`/kpi-data?id=${pointCount}`)).series[0]?.data ?? []).reduce((sum, point) => sum + point.value, 0);
for (let before = -1, now = await storedPoints(); now !== before || now === 0; before = now, now = await storedPoints()) await new Promise((r) => setTimeout(r, 2_000));

// ---- the heavy requests ------------------------------------------------------------------------------
let nested = '{ id name }';
for (let i = 0; i < GRAPHQL_LIMITS.maxDepth - 2; i++) nested = `{ id name children ${nested} }`;
const treeDocument = (aliases: number) => JSON.stringify({ query: `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: entity_tree ${nested}`).join(' ')} }` });
// The most aliases of a deep entity_tree that the depth, alias and cost limits still let through.
let allowedAliases = GRAPHQL_LIMITS.maxAliases;
while (allowedAliases > 1 && (await fetch(`${base}/graphql`, { method: 'POST', headers: jsonOf(token), body: treeDocument(allowedAliases) })).status !== 200) allowedAliases--;

// Bodies are built before measuring: building them here would stall this process's light client.
const unknownFields = (count: number) => JSON.stringify({ input: Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_${i}`, 'x'])) });
const allowedBody = unknownFields(25_000);
const oversizedBody = unknownFields(90_000);
const thousandAliases = JSON.stringify({ query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: entity_tree { id }`).join(' ')} }` });
const manyTokens = JSON.stringify({ query: `{ entity_type_group_list { ${Array(100_000).fill('id').join(' ')} } }` });
const deepTree = treeDocument(allowedAliases);
const longSearch = `/entity-list?search=${'x'.repeat(100_000)}`;
const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
const deepAttributes = JSON.stringify({ query: 'mutation($attributes: JSON) { update_entity_attribute(id: ' + lamp + ', attributes: $attributes) { id } }', variables: 'DEEP' }).replace('"DEEP"', `{"attributes": {"a": ${deep}}}`);

type Send = (bearer: string) => Promise<Response>;
const get = (path: string): Send => (bearer) => fetch(`${base}${path}`, { headers: authOf(bearer) });
const post = (path: string, body: string): Send => (bearer) => fetch(`${base}${path}`, { method: 'POST', headers: jsonOf(bearer), body });
const kpi = (zone: string): Send => get(`/kpi-data?id=${yearOfLampDays}&timezone=${encodeURIComponent(zone)}`);

const heavy: Array<[string, Send]> = [
  ['0.48 MB body of unknown fields (the most allowed)', post('/update-password', allowedBody)],
  ['1.7 MB body (over the limit)', post('/update-password', oversizedBody)],
  ['GraphQL: 1,000 aliases of entity_tree', post('/graphql', thousandAliases)],
  [`GraphQL: ${allowedAliases} aliases of entity_tree, depth ${GRAPHQL_LIMITS.maxDepth - 1} (the most allowed)`, post('/graphql', deepTree)],
  ['GraphQL: 100,000 tokens', post('/graphql', manyTokens)],
  ['GET /entity-list (whole tenant)', get('/entity-list')],
  ['GET /entity-list?per_page=500 (the largest page)', get('/entity-list?per_page=500&page=1')],
  ['GET /map-features (a whole page of the region)', get(`/map-features?region=${region}&limit=20000`)],
  ['GET /entity-list?search=<100k characters>', get(longSearch)],
  ['GET /kpi-data: a year of per-lamp days, Asia/Kolkata', kpi('Asia/Kolkata')],
  ['GET /kpi-data: a year of per-lamp days, America/St_Johns', kpi('America/St_Johns')],
  ['GET /kpi-data: a year of per-lamp days, Asia/Kathmandu', kpi('Asia/Kathmandu')],
  ['10,000-level JSON: device API telemetry', (_bearer) => fetch(`${base}/api/v1/${deviceToken}/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"v": ${deep}}` })],
  ['10,000-level JSON: REST body (/create-watcher)', post('/create-watcher', `{"input": {"name": ${deep}}}`)],
  ['10,000-level JSON: GraphQL variables', post('/graphql', deepAttributes)],
];

// ---- the light client ------------------------------------------------------------------------------
async function lightClient(signal: { stop: boolean }): Promise<number[]> {
  const latencies: number[] = [];
  while (!signal.stop) {
    const started = performance.now();
    // a connection the server closed after refusing a heavy request may be handed to this one: not a delay
    const answered = await fetch(`${base}/tenant`, { headers: authOf(token) }).then((r) => r.arrayBuffer()).then(() => true, () => false);
    if (answered) latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
  return latencies;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
};

/** The status of an answer the client did not get: the server closed the connection first. */
const RESET = 0;

/** Runs `send` (once, or `times` at once) while the light client reads; its status(es), time and the light client's latencies. */
async function measure(send: Send, bearer: string, times = 1) {
  const signal = { stop: false };
  const light = lightClient(signal);
  await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: times }, async () => {
    // A refusal may close the connection before the request is sent whole (431 for a 100 kB URL):
    // the client then sees the reset, not the answer.
    const response = await send(bearer).catch(() => undefined);
    await response?.arrayBuffer().catch(() => undefined);
    return response?.status ?? RESET;
  }));
  const took = performance.now() - started;
  await new Promise((r) => setTimeout(r, 50));
  signal.stop = true;
  const latencies = await light;
  return { statuses, took, worst: Math.max(...latencies), p99: percentile(latencies, 0.99) };
}

const statusList = (statuses: number[]) => [...new Set(statuses)].sort().map((status) => `${statuses.filter((s) => s === status).length}× ${status === RESET ? 'reset' : status}`).join(', ');

// ---- the largest public-API board, read by 100 clients at once (first: the server's memory as a fresh
// start leaves it, not as the other heavy requests do) ----------------------------------------------------
const quarterHours = await createKpi({ time_interval: '15m', time_range: '30d', series: 'per_entity' }, [{ key: 'power', aggregation: 'avg', entity_type_ids: [lampType] }]);
const board = (await graphql<{ public_api_create_board: { id: string } }>('mutation { public_api_create_board(name: { en: "bench: the largest board" }) { id } }')).public_api_create_board.id;
for (let n = 0; n < MAX_PAGE_SIZE; n += GRAPHQL_LIMITS.maxAliases) {
  const aliases = Array.from({ length: GRAPHQL_LIMITS.maxAliases }, (_, i) => `c${i}: public_api_create_component(name: "chart ${n + i}", type: "kpi", definition: { kpi_id: ${quarterHours} }, board_ids: [${board}]) { id }`).join(' ');
  const created = await graphql<Record<string, { id: string } | null>>(`mutation { ${aliases} }`);
  if (!created || Object.values(created).some((component) => !component)) throw new Error('the board\'s components could not be created');
}
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const boardRead = get(`/public-api-component-list?board_id=${board}`);
const single = await boardRead(token);
const singleBytes = (await single.arrayBuffer()).byteLength;
let peakRss = rssMb();
const sampler = setInterval(() => { peakRss = Math.max(peakRss, rssMb()); }, 50);
const readers = await measure(boardRead, token, 100);
clearInterval(sampler);
const alive = await fetch(`${base}/health`).then((r) => r.ok, () => false);
console.log(`Heavy requests against ${server.database} — ${machineLine()}`);
console.log(`(a year of per-lamp days: ${entities.filter((entity) => entity.entity_type_id === lampType).length} lamps, ${await storedPoints()} points of power in the demo history)`);
console.log('\nOne at a time, as admin@demo.city:\n');
console.log('| heavy request | status | its time (ms) | light client worst / p99 (ms) |');
console.log('| --- | --- | ---: | ---: |');
let over = 0;
for (const [name, send] of heavy) {
  await send(token).then((r) => r.arrayBuffer()); // warm up (first compile of the route, caches)
  const { statuses, took, worst, p99 } = await measure(send, token);
  if (worst > 100) over++;
  console.log(`| ${name} | ${statusList(statuses)} | ${took.toFixed(0)} | ${worst.toFixed(0)} / ${p99.toFixed(0)} |`);
}

console.log('\nTen at once, as operator@demo.city:\n');
console.log('| heavy request ×10 | statuses | all answered (ms) | light client worst / p99 (ms) |');
console.log('| --- | --- | ---: | ---: |');
let overTen = 0;
for (const [name, send] of heavy) {
  const { statuses, took, worst, p99 } = await measure(send, operatorToken, 10);
  if (p99 > 250) overTen++;
  console.log(`| ${name} | ${statusList(statuses)} | ${took.toFixed(0)} | ${worst.toFixed(0)} / ${p99.toFixed(0)} |`);
}

console.log(`\nThe largest public-API board (${MAX_PAGE_SIZE} KPI components, thirty days of quarter hours per lamp; one answer ${(singleBytes / 1e6).toFixed(1)} MB), 100 readers at once:\n`);
console.log('| readers | statuses | all answered (ms) | server peak RSS (MB) | alive after | light client worst / p99 (ms) |');
console.log('| ---: | --- | ---: | ---: | --- | ---: |');
console.log(`| 100 | ${statusList(readers.statuses)} | ${readers.took.toFixed(0)} | ${peakRss.toFixed(0)} | ${alive ? 'yes' : 'NO'} | ${readers.worst.toFixed(0)} / ${readers.p99.toFixed(0)} |`);


console.log(over ? `\n${over} heavy request(s) delayed the light client by more than 100 ms.` : '\nNo heavy request delayed the light client by more than 100 ms.');
console.log(overTen ? `${overTen} heavy request(s) ten at once put the light client's p99 over 250 ms.` : 'Ten at once, the light client\'s p99 stayed under 250 ms for every heavy request.');
console.log(alive && peakRss < 1024 && readers.worst <= 100
  ? 'The 100 board readers left the server alive under 1 GB, the light client delayed by at most 100 ms.'
  : `The 100 board readers: alive ${alive}, peak RSS ${peakRss.toFixed(0)} MB, the light client's worst ${readers.worst.toFixed(0)} ms (goals: alive, < 1,024 MB, ≤ 100 ms).`);
await server.stop();
