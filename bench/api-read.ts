// `node bench/api-read.ts [--postgres] [--duration 10]`: authenticated reads under load.
// 16 connections, `--duration` seconds per route (default 10), signed in as admin@demo.city:
// requests/s and p50/p95/p99 for /tenant, /user-me, /entity-list, /watcher-list and a static
// asset, each route's ratio to the static asset in the same run, and non-2xx answers (a
// benchmark of refusals would be worthless). Goal on 2 cores: /tenant and /user-me ≥ 2,000/s,
// /entity-list ≥ 800/s, p95 < 20 ms, on both databases.
import autocannon from 'autocannon';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchServer, machineLine } from './launch.ts';
import { argument } from './arguments.ts';

const duration = Number(argument('--duration', '10'));
const connections = 16;

const assets = join(import.meta.dirname, '..', 'dist', 'assets');
const asset = readdirSync(assets).find((name) => name.endsWith('.js'));
if (!asset) throw new Error('No built web app: run `npm run build` first.');

const server = await launchServer({ postgres: process.argv.includes('--postgres') });
const routes = ['/tenant', '/user-me', '/entity-list', '/watcher-list', `/assets/${asset}`];

interface Figures { route: string; rps: number; p50: number; p95: number; p99: number; non2xx: number }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function measure(route: string): Promise<Figures> {
  const headers = route.startsWith('/assets/') ? {} : { authorization: `Bearer ${server.token}` };
  await autocannon({ url: server.base + route, connections, duration: 1, headers }); // warm up
  // autocannon's own percentiles skip p95: keep every response time instead.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: server.base + route, connections, duration, headers }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  const ms = (p: number) => Number(percentile(times, p).toFixed(1));
  return { route, rps: result.requests.total / duration, p50: ms(50), p95: ms(95), p99: ms(99), non2xx: result.non2xx + result.errors };
}

const figures: Figures[] = [];
for (const route of routes) figures.push(await measure(route));
await server.stop();

const staticRps = figures.at(-1)!.rps;
console.log(`Authenticated reads, ${connections} connections, ${duration} s per route, ${server.database} — ${machineLine()}`);
console.log('| route | requests/s | p50 ms | p95 ms | p99 ms | non-2xx | ratio to static |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const f of figures) {
  const route = f.route.startsWith('/assets/') ? 'static asset (/assets/*.js)' : f.route;
  console.log(`| ${route} | ${Math.round(f.rps)} | ${f.p50} | ${f.p95} | ${f.p99} | ${f.non2xx} | ${(f.rps / staticRps).toFixed(2)} |`);
}
