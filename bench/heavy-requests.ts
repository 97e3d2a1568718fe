// `node bench/heavy-requests.ts [--postgres]`: does one heavy client stall the others?
// While a light client asks for /tenant every 5 ms, a heavy client sends, one after another, the
// worst requests the limits allow (and some they refuse): a 0.48 MB body of unknown fields, a 1.7 MB one, a
// 1,000-alias GraphQL document, the largest allowed entity_tree document, a 2,000-token
// document, a 100k-character search. Prints, per heavy request, its own time and the light
// client's worst latency meanwhile — an upper bound of how long the event loop was blocked.
// Goal (issue "Harden and speed up the spine"): no request blocks the server for more than 100 ms.
import { GRAPHQL_LIMITS } from '../server/graphql/limits.ts';
import { launchServer, machineLine } from './launch.ts';

const server = await launchServer({ postgres: process.argv.includes('--postgres') });
const { base, token } = server;
const auth = { authorization: `Bearer ${token}` };
const json = { ...auth, 'content-type': 'application/json' };

let nested = '{ id name }';
for (let i = 0; i < GRAPHQL_LIMITS.maxDepth - 2; i++) nested = `{ id name children ${nested} }`;
const treeDocument = (aliases: number) => JSON.stringify({ query: `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: entity_tree ${nested}`).join(' ')} }` });
// The most aliases of a deep entity_tree that the depth, alias and cost limits still let through.
let allowedAliases = GRAPHQL_LIMITS.maxAliases;
while (allowedAliases > 1 && (await fetch(`${base}/graphql`, { method: 'POST', headers: json, body: treeDocument(allowedAliases) })).status !== 200) allowedAliases--;

// Bodies are built before measuring: building them here would stall this process's light client.
const unknownFields = (count: number) => JSON.stringify({ input: Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_${i}`, 'x'])) });
const allowedBody = unknownFields(25_000);
const oversizedBody = unknownFields(90_000);
const thousandAliases = JSON.stringify({ query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: entity_tree { id }`).join(' ')} }` });
const manyTokens = JSON.stringify({ query: `{ entity_type_group_list { ${Array(100_000).fill('id').join(' ')} } }` });
const deepTree = treeDocument(allowedAliases);
const longSearch = `${base}/entity-list?search=${'x'.repeat(100_000)}`;

const heavy: Array<[string, () => Promise<Response>]> = [
  ['0.48 MB body of unknown fields (the most allowed)', () => fetch(`${base}/update-password`, { method: 'POST', headers: json, body: allowedBody })],
  ['1.7 MB body (over the limit)', () => fetch(`${base}/update-password`, { method: 'POST', headers: json, body: oversizedBody })],
  ['GraphQL: 1,000 aliases of entity_tree', () => fetch(`${base}/graphql`, { method: 'POST', headers: json, body: thousandAliases })],
  [`GraphQL: ${allowedAliases} aliases of entity_tree, depth ${GRAPHQL_LIMITS.maxDepth - 1} (the most allowed)`,
    () => fetch(`${base}/graphql`, { method: 'POST', headers: json, body: deepTree })],
  ['GraphQL: 100,000 tokens', () => fetch(`${base}/graphql`, { method: 'POST', headers: json, body: manyTokens })],
  ['GET /entity-list (whole tenant)', () => fetch(`${base}/entity-list`, { headers: auth })],
  ['GET /entity-list?search=<100k characters>', () => fetch(longSearch, { headers: auth })],
];

async function lightClient(signal: { stop: boolean }): Promise<number> {
  let worst = 0;
  while (!signal.stop) {
    const started = performance.now();
    await fetch(`${base}/tenant`, { headers: auth }).then((r) => r.arrayBuffer());
    worst = Math.max(worst, performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
  return worst;
}

console.log(`Heavy requests against ${server.database} — ${machineLine()}`);
console.log('| heavy request | status | its time (ms) | light client worst (ms) |');
console.log('| --- | --- | ---: | ---: |');
let over = 0;
for (const [name, send] of heavy) {
  await send().then((r) => r.arrayBuffer()); // warm up (first compile of the route, caches)
  const signal = { stop: false };
  const light = lightClient(signal);
  await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  const took = performance.now() - started;
  await new Promise((r) => setTimeout(r, 50));
  signal.stop = true;
  const worst = await light;
  if (worst > 100) over++;
  console.log(`| ${name} | ${response.status} | ${took.toFixed(0)} | ${worst.toFixed(0)} |`);
}
console.log(over ? `\n${over} heavy request(s) delayed the light client by more than 100 ms.` : '\nNo heavy request delayed the light client by more than 100 ms.');
await server.stop();
