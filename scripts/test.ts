// `npm test`: every check of the project, in order, with a summary at the end.
//
//   typecheck  tsc -p tsconfig.json --noEmit
//   lint       eslint .
//   deps       npm ls antd react-router: exactly one version of each
//   unit       vitest run --project unit
//   api        vitest run --project api                (embedded PGlite database)
//   api-pg     vitest run --project api on PostgreSQL  (DATABASE_URL, or a throw-away server)
//   e2e        playwright test                          (real server and web app in Chromium)
//
// Every step runs even when an earlier one failed, so the summary is complete. The last line is
// "N passed, N failed", counting test cases (each of typecheck, lint and deps counts as one);
// the exit code is non-zero when anything failed.
//
// `node scripts/test.ts unit api` runs only the named steps.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { resolveChromium } from './chromium.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres.ts';

const root = join(import.meta.dirname, '..');
const reportDir = mkdtempSync(join(tmpdir(), 'terrasight-test-'));

type Status = 'passed' | 'failed' | 'not run';

interface StepResult {
  status: Status;
  passed: number;
  failed: number;
  skipped: number;
  /** Short explanation shown in the summary (failure reason, why it did not run). */
  note?: string;
  /** Lines quoted after the summary (errors that no test case reports). */
  details?: string;
}

interface Step {
  key: string;
  title: string;
  run(): Promise<StepResult>;
}

// Tools from node_modules/.bin first: there `node` is the project's Node 24, which the tools'
// `#!/usr/bin/env node` lines then pick up even when this script was started another way.
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: [join(root, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
  FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0'),
};

let currentChild: ChildProcess | undefined;

const KEPT_OUTPUT_CHARS = 200_000;

/**
 * Runs a command with its output streamed to ours; resolves with its exit code. With `kept`, the
 * last KEPT_OUTPUT_CHARS of its output are also kept there (to quote from after the summary).
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv, kept?: { output: string }): Promise<number> {
  console.log(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd: root, env, stdio: kept ? ['inherit', 'pipe', 'pipe'] : 'inherit' });
    currentChild = child;
    if (kept) {
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
        from!.setEncoding('utf8');
        from!.on('data', (chunk: string) => {
          to.write(chunk);
          kept.output = (kept.output + chunk).slice(-KEPT_OUTPUT_CHARS);
        });
      }
    }
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolveRun(127);
    });
    child.on('close', (code, signal) => {
      currentChild = undefined;
      resolveRun(code ?? (signal ? 128 : 1));
    });
  });
}

/** Runs a command and captures its stdout (stderr is streamed). */
function capture(command: string, args: string[]): Promise<{ code: number; stdout: string }> {
  console.log(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolveCapture) => {
    const child = spawn(command, args, { cwd: root, env: baseEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    currentChild = child;
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolveCapture({ code: 127, stdout });
    });
    child.on('close', (code) => {
      currentChild = undefined;
      resolveCapture({ code: code ?? 1, stdout });
    });
  });
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

const check = (ok: boolean, note?: string): StepResult =>
  ({ status: ok ? 'passed' : 'failed', passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, note });

function readJson(file: string): any {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/** Vitest with its JSON report beside the normal output; counts come from the report. */
async function vitest(project: string, reportName: string, env: NodeJS.ProcessEnv): Promise<StepResult> {
  const report = join(reportDir, `${reportName}.json`);
  const kept = { output: '' };
  const code = await run('vitest', [
    'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
  ], env, kept);
  const json = readJson(report);
  if (!json) return { status: 'failed', passed: 0, failed: 1, skipped: 0, note: `vitest exited ${code} without a report` };
  const passed: number = json.numPassedTests ?? 0;
  let failed: number = json.numFailedTests ?? 0;
  const skipped: number = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  let note: string | undefined;
  const brokenFiles = (json.testResults ?? []).filter((file: any) => file.status === 'failed' && !(file.assertionResults ?? []).length);
  if (brokenFiles.length) note = `${brokenFiles.length} test file(s) failed to load`;
  if (code !== 0 && failed === 0) {
    failed = Math.max(1, brokenFiles.length); // unhandled errors, files that did not load, no tests found
    note ??= `vitest exited ${code} (errors outside test cases; quoted below)`;
    return { status: 'failed', passed, failed, skipped, note, details: unhandledErrorsIn(kept.output) };
  }
  return { status: code === 0 ? 'passed' : 'failed', passed, failed, skipped, note };
}

/** Vitest's "Unhandled Errors" block (colours removed, at most 60 lines), else the output's last lines. */
function unhandledErrorsIn(output: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const start = plain.search(/⎯+ Unhandled Error/);
  const lines = (start >= 0 ? plain.slice(start) : plain).split('\n');
  return (start >= 0 ? lines.slice(0, 60) : lines.slice(-30)).join('\n');
}

/** Every version of each named package anywhere in `npm ls --all --json`. */
function versionsIn(tree: any, names: string[]): Map<string, Set<string>> {
  const found = new Map(names.map((name) => [name, new Set<string>()]));
  const walk = (node: any) => {
    for (const [name, dep] of Object.entries<any>(node?.dependencies ?? {})) {
      if (found.has(name) && dep?.version) found.get(name)!.add(dep.version);
      walk(dep);
    }
  };
  walk(tree);
  return found;
}

let postgres: ThrowawayPostgres | null = null;

const steps: Step[] = [
  {
    key: 'typecheck',
    title: 'Typecheck',
    run: async () => check((await run('tsc', ['-p', 'tsconfig.json', '--noEmit'])) === 0),
  },
  {
    key: 'lint',
    title: 'Lint',
    run: async () => check((await run('eslint', ['.'])) === 0),
  },
  {
    key: 'deps',
    title: 'One antd, one react-router',
    run: async () => {
      const names = ['antd', 'react-router'];
      const { stdout } = await capture('npm', ['ls', ...names, '--all', '--json']);
      let tree: unknown;
      try {
        tree = JSON.parse(stdout);
      } catch {
        return check(false, 'npm ls did not print JSON');
      }
      const problems: string[] = [];
      for (const [name, versions] of versionsIn(tree, names)) {
        const list = [...versions].sort();
        console.log(`${name}: ${list.join(', ') || 'not installed'}`);
        if (list.length !== 1) problems.push(`${name} ${list.length ? list.join(' + ') : 'missing'}`);
      }
      return check(problems.length === 0, problems.length ? problems.join('; ') : undefined);
    },
  },
  {
    key: 'unit',
    title: 'Unit tests',
    run: () => vitest('unit', 'unit', baseEnv),
  },
  {
    key: 'api',
    title: 'API tests (embedded database)',
    run: () => {
      const env = { ...baseEnv };
      delete env.TEST_DATABASE_URL;
      return vitest('api', 'api', env);
    },
  },
  {
    key: 'api-pg',
    title: 'API tests (PostgreSQL)',
    run: async () => {
      let url = process.env.DATABASE_URL;
      if (url) {
        console.log('Using the PostgreSQL server in DATABASE_URL (each test file creates and drops its own database).');
      } else {
        try {
          postgres = await startThrowawayPostgres();
        } catch (error) {
          console.error((error as Error).message);
          return check(false, `could not start PostgreSQL: ${(error as Error).message.split('\n')[0]}`);
        }
        if (!postgres) {
          const note = 'PostgreSQL leg did not run (no DATABASE_URL and no PostgreSQL binaries)';
          console.log(note);
          return { status: 'not run', passed: 0, failed: 0, skipped: 0, note };
        }
        url = postgres.url;
        console.log(`Started a throw-away PostgreSQL ${postgres.version} at ${url}`);
      }
      try {
        const result = await vitest('api', 'api-pg', { ...baseEnv, TEST_DATABASE_URL: url });
        if (postgres) result.note ??= `throw-away PostgreSQL ${postgres.version}`;
        return result;
      } finally {
        await postgres?.stop();
        postgres = null;
      }
    },
  },
  {
    key: 'e2e',
    title: 'Browser tests',
    run: async () => {
      let chromium: string;
      try {
        chromium = resolveChromium();
      } catch (error) {
        console.error((error as Error).message);
        return check(false, (error as Error).message);
      }
      console.log(`Chromium: ${chromium}`);
      const report = join(reportDir, 'e2e.json');
      const code = await run('playwright', ['test'], { ...baseEnv, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_FILE: report });
      const json = readJson(report);
      const stats = json?.stats;
      if (!stats) return { status: 'failed', passed: 0, failed: 1, skipped: 0, note: `playwright exited ${code} without a report` };
      const firstError: string | undefined = json.errors?.[0]?.message?.replace(ANSI, '').split('\n')[0];
      const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
      let failed: number = stats.unexpected ?? 0;
      let note = stats.flaky ? `${stats.flaky} passed only on retry` : undefined;
      if (code !== 0 && failed === 0) {
        failed = 1;
        note = firstError ?? `playwright exited ${code} (see its output)`;
      }
      return { status: code === 0 ? 'passed' : 'failed', passed, failed, skipped: stats.skipped ?? 0, note };
    },
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((key) => !steps.some((step) => step.key === key));
if (unknown.length) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${steps.map((step) => step.key).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? steps.filter((step) => wanted.includes(step.key)) : steps;

let interrupted = false;
async function shutdown(signal: NodeJS.Signals) {
  interrupted = true;
  console.error(`\n${signal}: stopping…`);
  const server = postgres;
  currentChild?.kill(signal);
  await server?.stop().catch(() => {});
  rmSync(reportDir, { recursive: true, force: true });
  process.exit(130);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

const bold = (text: string) => (baseEnv.FORCE_COLOR !== '0' ? `\x1b[1m${text}\x1b[22m` : text);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const results: Array<{ step: Step; result: StepResult; ms: number }> = [];
const startedAt = Date.now();
for (const step of selected) {
  if (interrupted) break;
  console.log(`\n${bold(`▶ ${step.title}`)} [${step.key}]`);
  const t0 = Date.now();
  let result: StepResult;
  try {
    result = await step.run();
  } catch (error) {
    console.error(error);
    result = check(false, `crashed: ${(error as Error).message.split('\n')[0]}`);
  }
  const ms = Date.now() - t0;
  results.push({ step, result, ms });
  console.log(`${bold(`◀ ${step.title}: ${result.status}`)} (${seconds(ms)})`);
}
if (interrupted) await new Promise(() => {}); // shutdown() exits once everything is stopped
rmSync(reportDir, { recursive: true, force: true });

// Summary table.
const rows = [
  ['step', 'result', 'passed', 'failed', 'skipped', 'time', 'note'],
  ...results.map(({ step, result, ms }) => [
    step.key, result.status, String(result.passed), String(result.failed), String(result.skipped), seconds(ms), result.note ?? '',
  ]),
];
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
const line = (row: string[]) => row.map((cell, column) => (column >= 2 && column <= 5 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
console.log(`\n${bold('Summary')} (${seconds(Date.now() - startedAt)})`);
console.log(line(rows[0]));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows.slice(1)) console.log(line(row));

for (const { step, result } of results) if (result.details) console.log(`\n${bold(`${step.key}:`)}\n${result.details}`);

const notRun = results.filter(({ result }) => result.status === 'not run');
for (const { result } of notRun) console.log(`\nNote: ${result.note}`);

const passed = results.reduce((sum, { result }) => sum + result.passed, 0);
const failed = results.reduce((sum, { result }) => sum + result.failed, 0);
const anyFailed = results.some(({ result }) => result.status === 'failed');
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(anyFailed || failed > 0 ? 1 : 0);
