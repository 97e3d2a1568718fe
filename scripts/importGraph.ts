// `node scripts/importGraph.ts`: the server's layers point down only, the server imports of the
// web app only what both sides run, SQL is written in server/db/ only; in the web app only pages
// and the page table (src/pageTable.tsx) import pages; and no module imports itself in a circle.
// Reads every .ts/.tsx file of server/ and src/ and follows its relative imports, dynamic ones
// included (type-only imports are left out: they are erased and tie no module to another at run
// time); prints each import that breaks a rule and exits non-zero when there is one. Run by `npm test`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * The server's layers, highest first: a file may import its own layer and those below. The
 * composition (and the configuration it reads) over the doors (REST, GraphQL) over what runs
 * (engines, devices, live) over the domain services over the resource engine over the data layer,
 * the caches and the events, over the basics (errors, time arithmetic, gates).
 */
const SERVER_LAYERS: [prefix: string, rank: number][] = [
  ['server/main.ts', 6], ['server/app.ts', 6], ['server/appOptions.ts', 6], ['server/config.ts', 6], ['server/startupErrors.ts', 6],
  ['server/api/', 5], ['server/graphql/', 5],
  ['server/engines/', 4], ['server/ingest/', 4], ['server/live/', 4], ['server/seed/', 4],
  ['server/services/', 3], ['server/telemetry/', 3],
  ['server/resources/', 2],
  ['server/db/', 1], ['server/auth/', 1], ['server/events/', 1], ['server/cache/', 1],
  ['server/time/', 0], ['server/', 0],
];

/** What may import the web app's pages: the pages themselves and the table that routes to them. */
const IMPORTING_PAGES = ['src/pages/', 'src/pageTable.tsx'];

/** What the server may import of src/: the modules both sides run (no browser API in them): the schemas, and src/shared/ (lighting maths, the dictionaries, localized text). */
const SHARED_WITH_SERVER = ['src/schemas/', 'src/shared/'];

const rankOf = (file: string) => SERVER_LAYERS.find(([prefix]) => file.startsWith(prefix))?.[1];

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files `file` (its `text`) imports at run time (relative specifiers), as paths from the root. */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1]) continue; // `import type` / `export type`
    const specifier = match[2] ?? match[3];
    found.push(normalize(join(dirname(file), specifier)).replaceAll('\\', '/'));
  }
  return found;
}

export function importProblems(): string[] {
  const texts = new Map([...filesUnder('server'), ...filesUnder('src')].map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const graph = new Map([...texts].map(([file, text]) => [file, importsOf(file, text)]));
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (file.startsWith('src/')) {
        if (target.startsWith('src/pages/') && !IMPORTING_PAGES.some((prefix) => file.startsWith(prefix))) problems.push(`${file} → ${target}: only pages and the page table import pages`);
        continue;
      }
      if (target.startsWith('src/') && !SHARED_WITH_SERVER.some((prefix) => target.startsWith(prefix))) {
        problems.push(`${file} → ${target}: the server imports only what both sides run (${SHARED_WITH_SERVER.join(', ')})`);
      }
      const [from, to] = [rankOf(file), rankOf(target)];
      if (target.startsWith('server/') && from !== undefined && to !== undefined && to > from) problems.push(`${file} → ${target}: imports a layer above its own`);
    }
  }
  for (const cycle of cyclesOf(graph)) problems.push(`a circle: ${cycle.join(' → ')}`);
  for (const [file, text] of texts) {
    if (file.startsWith('server/') && !file.startsWith('server/db/') && /\bsql(`|\.raw\()/.test(text)) problems.push(`${file}: SQL outside server/db/`);
  }
  return problems;
}

/** One circle of imports through each strongly connected set of files (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const lowOf = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    indexOf.set(file, index);
    lowOf.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!indexOf.has(target)) {
        visit(target);
        lowOf.set(file, Math.min(lowOf.get(file)!, lowOf.get(target)!));
      } else if (onStack.has(target)) lowOf.set(file, Math.min(lowOf.get(file)!, indexOf.get(target)!));
    }
    if (lowOf.get(file) !== indexOf.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1) cycles.push([...members.reverse(), members[0]]);
  };
  for (const file of graph.keys()) if (!indexOf.has(file)) visit(file);
  return cycles;
}

if (relative(process.argv[1] ?? '', import.meta.filename) === '') {
  const problems = importProblems();
  for (const problem of problems) console.log(problem);
  console.log(problems.length ? `${problems.length} problem(s) with the layers` : 'The layers point down only; no circle of imports; SQL only in server/db/.');
  process.exitCode = problems.length ? 1 : 0;
}
