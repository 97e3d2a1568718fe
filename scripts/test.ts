// `npm test`: every check of the project, with a summary at the end.
//
//   typecheck  tsc -p tsconfig.json --noEmit
//   lint       eslint .
//   deps       npm ls antd react-router: exactly one version of each
//   unit       vitest run --project unit
//   api        vitest run --project api                (embedded PGlite database)
//   api-pg     vitest run --project api on PostgreSQL  (DATABASE_URL, or a throw-away server)
//   e2e        playwright test                          (real server and web app in Chromium)
//
// Every step runs even when an earlier one failed, so the summary is complete: each step's result,
// counts and time, the ten slowest test files of the run, every skipped test with its reason, and
// last "N passed, N failed", counting test cases (each of typecheck, lint and deps counts as one).
// The exit code is non-zero when anything failed. The steps of a stage run side by side (STAGES):
// the first streams its output, the others' is printed as each ends. docs/testing.md has the budget.
//
// `node scripts/test.ts unit api` runs only the named steps.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { resolveChromium } from './chromium.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres.ts';
import { playwrightSummary, slowestFiles, type PlaywrightReport, type StepSummary } from './testSummary.ts';

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
  files?: StepSummary['files'];
  skippedTests?: StepSummary['skippedTests'];
}

/** Where a step's output goes: streamed as it comes, or kept until the step ends. */
interface Output {
  write(text: string, stream: 'out' | 'err'): void;
}

interface Step {
  key: string;
  title: string;
  run(output: Output): Promise<StepResult>;
}

// Tools from node_modules/.bin first: there `node` is the project's Node 24, which the tools'
// `#!/usr/bin/env node` lines then pick up even when this script was started another way.
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: [join(root, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
  FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0'),
};

const running = new Set<ChildProcess>();

const KEPT_OUTPUT_CHARS = 200_000;

/**
 * Runs a command, its output to `output`; resolves with its exit code. With `kept`, the last
 * KEPT_OUTPUT_CHARS of its output are also kept there (to quote from after the summary).
 */
function run(output: Output, command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv, kept?: { output: string }): Promise<number> {
  output.write(`$ ${command} ${args.join(' ')}\n`, 'out');
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    for (const [from, to] of [[child.stdout, 'out'], [child.stderr, 'err']] as const) {
      from.setEncoding('utf8');
      from.on('data', (chunk: string) => {
        output.write(chunk, to);
        if (kept) kept.output = (kept.output + chunk).slice(-KEPT_OUTPUT_CHARS);
      });
    }
    child.on('error', (error) => {
      output.write(`Could not start ${command}: ${error.message}\n`, 'err');
      resolveRun(127);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolveRun(code ?? (signal ? 128 : 1));
    });
  });
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

const check = (ok: boolean, note?: string): StepResult =>
  ({ status: ok ? 'passed' : 'failed', passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, note });

function readJson<T>(file: string): T | undefined {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as T : undefined;
  } catch {
    return undefined;
  }
}

/** The step's result from its runner's summary and exit code. */
function resultOf(code: number, summary: StepSummary | undefined, runner: string, details?: () => string): StepResult {
  if (!summary) return { status: 'failed', passed: 0, failed: 1, skipped: 0, note: `${runner} exited ${code} without a report` };
  const { passed, skipped, files, skippedTests, brokenFiles } = summary;
  let failed = summary.failed;
  const notes: string[] = [];
  if (brokenFiles.length) notes.push(`${brokenFiles.length} test file(s) failed outside their tests: ${brokenFiles.join(', ')}`);
  if (summary.flaky) notes.push(`${summary.flaky} passed only on retry`);
  let quoted: string | undefined;
  if (code !== 0 && failed === 0) {
    failed = Math.max(1, brokenFiles.length); // unhandled errors, files that did not load, no tests found
    if (!notes.length) notes.push(`${runner} exited ${code} (errors outside test cases; quoted below)`);
    quoted = details?.();
  }
  return { status: code === 0 ? 'passed' : 'failed', passed, failed, skipped, note: notes.join('; ') || undefined, details: quoted, files, skippedTests };
}

/** Vitest with the summary reporter beside the normal output. */
async function vitest(output: Output, project: string, reportName: string, env: NodeJS.ProcessEnv): Promise<StepResult> {
  const report = join(reportDir, `${reportName}.json`);
  const kept = { output: '' };
  const code = await run(output, 'vitest', [
    'run', '--project', project, '--reporter=default', `--reporter=${join(root, 'scripts', 'vitestSummary.ts')}`,
  ], { ...env, VITEST_SUMMARY_FILE: report }, kept);
  return resultOf(code, readJson<StepSummary>(report), 'vitest', () => unhandledErrorsIn(kept.output));
}

/** Vitest's "Unhandled Errors" block (colours removed, at most 60 lines), else the output's last lines. */
function unhandledErrorsIn(output: string): string {
  const plain = output.replace(ANSI, '');
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

const steps: Step[] = [
  {
    key: 'typecheck',
    title: 'Typecheck',
    run: async (output) => check((await run(output, 'tsc', ['-p', 'tsconfig.json', '--noEmit'])) === 0),
  },
  {
    key: 'lint',
    title: 'Lint',
    run: async (output) => check((await run(output, 'eslint', ['.'])) === 0),
  },
  {
    key: 'deps',
    title: 'One antd, one react-router',
    run: async (output) => {
      const names = ['antd', 'react-router'];
      let stdout = '';
      await run({ write: (text, stream) => (stream === 'out' ? (stdout += text) : output.write(text, stream)) }, 'npm', ['ls', ...names, '--all', '--json']);
      let tree: unknown;
      try {
        tree = JSON.parse(stdout.slice(stdout.indexOf('{')));
      } catch {
        return check(false, 'npm ls did not print JSON');
      }
      const problems: string[] = [];
      for (const [name, versions] of versionsIn(tree, names)) {
        const list = [...versions].sort();
        output.write(`${name}: ${list.join(', ') || 'not installed'}\n`, 'out');
        if (list.length !== 1) problems.push(`${name} ${list.length ? list.join(' + ') : 'missing'}`);
      }
      return check(problems.length === 0, problems.length ? problems.join('; ') : undefined);
    },
  },
  {
    key: 'unit',
    title: 'Unit tests',
    run: (output) => vitest(output, 'unit', 'unit', baseEnv),
  },
  {
    key: 'api',
    title: 'API tests (embedded database)',
    run: (output) => {
      const env = { ...baseEnv };
      delete env.TEST_DATABASE_URL;
      return vitest(output, 'api', 'api', env);
    },
  },
  {
    key: 'api-pg',
    title: 'API tests (PostgreSQL)',
    run: async (output) => {
      let url = process.env.DATABASE_URL;
      let postgres: ThrowawayPostgres | null = null;
      if (url) {
        output.write('Using the PostgreSQL server in DATABASE_URL (each test file creates and drops its own database).\n', 'out');
      } else {
        try {
          postgres = await startThrowawayPostgres();
        } catch (error) {
          output.write(`${(error as Error).message}\n`, 'err');
          return check(false, `could not start PostgreSQL: ${(error as Error).message.split('\n')[0]}`);
        }
        if (!postgres) {
          const note = 'PostgreSQL leg did not run (no DATABASE_URL and no PostgreSQL binaries)';
          output.write(`${note}\n`, 'out');
          return { status: 'not run', passed: 0, failed: 0, skipped: 0, note };
        }
        stopOnSignal.add(() => postgres!.stop());
        url = postgres.url;
        output.write(`Started a throw-away PostgreSQL ${postgres.version} at ${url}\n`, 'out');
      }
      try {
        const result = await vitest(output, 'api', 'api-pg', { ...baseEnv, TEST_DATABASE_URL: url });
        if (postgres) result.note ??= `throw-away PostgreSQL ${postgres.version}`;
        return result;
      } finally {
        await postgres?.stop();
      }
    },
  },
  {
    key: 'e2e',
    title: 'Browser tests',
    run: async (output) => {
      let chromium: string;
      try {
        chromium = resolveChromium((line) => output.write(`${line}\n`, 'out'));
      } catch (error) {
        output.write(`${(error as Error).message}\n`, 'err');
        return check(false, (error as Error).message);
      }
      output.write(`Chromium: ${chromium}\n`, 'out');
      const report = join(reportDir, 'e2e.json');
      const code = await run(output, 'playwright', ['test'], { ...baseEnv, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_FILE: report });
      const json = readJson<PlaywrightReport>(report);
      const firstError = json?.errors?.[0]?.message?.replace(ANSI, '').split('\n')[0];
      return resultOf(code, json && playwrightSummary(json, 'tests/e2e'), 'playwright', () => firstError ?? 'see its output');
    },
  },
];

/**
 * Steps in one stage run side by side, the stages one after another. The browser tests leave a
 * fifth of two cores idle, but the PostgreSQL leg beside them made its cluster scenario miss
 * live updates around a killed instance (a subscriber noticed the kill more than its 1 s margin
 * late), so the legs run alone.
 */
const STAGES: string[][] = [['typecheck', 'lint', 'deps'], ['unit'], ['api'], ['api-pg'], ['e2e']];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((key) => !steps.some((step) => step.key === key));
if (unknown.length) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${steps.map((step) => step.key).join(', ')}`);
  process.exit(2);
}
const selected = (key: string) => !wanted.length || wanted.includes(key);

/** What to stop when the run is interrupted (besides the child processes). */
const stopOnSignal = new Set<() => Promise<void>>();
let interrupted = false;
async function shutdown(signal: NodeJS.Signals) {
  interrupted = true;
  console.error(`\n${signal}: stopping…`);
  for (const child of running) child.kill(signal);
  await Promise.all([...stopOnSignal].map((stop) => stop().catch(() => {})));
  rmSync(reportDir, { recursive: true, force: true });
  process.exit(130);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

const bold = (text: string) => (baseEnv.FORCE_COLOR !== '0' ? `\x1b[1m${text}\x1b[22m` : text);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const streamed: Output = { write: (text, stream) => void (stream === 'out' ? process.stdout : process.stderr).write(text) };

/** Runs a step; its output streams (`live`) or is printed in one block when it ends. */
async function runStep(step: Step, live: boolean): Promise<{ step: Step; result: StepResult; ms: number }> {
  let held = '';
  const output: Output = live ? streamed : { write: (text) => void (held += text) };
  const begin = `\n${bold(`▶ ${step.title}`)} [${step.key}]${live ? '' : ' (beside the others; its output follows when it ends)'}\n`;
  if (live) process.stdout.write(begin);
  const t0 = Date.now();
  let result: StepResult;
  try {
    result = await step.run(output);
  } catch (error) {
    output.write(`${(error as Error).stack ?? error}\n`, 'err');
    result = check(false, `crashed: ${(error as Error).message.split('\n')[0]}`);
  }
  const ms = Date.now() - t0;
  process.stdout.write(`${live ? '' : `${begin}${held}`}${bold(`◀ ${step.title}: ${result.status}`)} (${seconds(ms)})\n`);
  return { step, result, ms };
}

const results: Array<{ step: Step; result: StepResult; ms: number }> = [];
const startedAt = Date.now();
for (const stage of STAGES) {
  if (interrupted) break;
  const stageSteps = stage.filter(selected).map((key) => steps.find((step) => step.key === key)!);
  results.push(...await Promise.all(stageSteps.map((step, index) => runStep(step, index === 0))));
}
if (interrupted) await new Promise(() => {}); // shutdown() exits once everything is stopped
rmSync(reportDir, { recursive: true, force: true });

// Summary table, in the steps' order.
results.sort((a, b) => steps.indexOf(a.step) - steps.indexOf(b.step));
const table = (rows: string[][], numeric: (column: number) => boolean) => {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => (numeric(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  return [line(rows[0]), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
};
console.log(`\n${bold('Summary')} (${seconds(Date.now() - startedAt)})`);
console.log(table([
  ['step', 'result', 'passed', 'failed', 'skipped', 'time', 'note'],
  ...results.map(({ step, result, ms }) => [
    step.key, result.status, String(result.passed), String(result.failed), String(result.skipped), seconds(ms), result.note ?? '',
  ]),
], (column) => column >= 2 && column <= 5));

const slowest = slowestFiles(results.map(({ step, result }) => ({ step: step.key, files: result.files ?? [] })));
if (slowest.length) {
  console.log(`\n${bold('Slowest test files')}`);
  console.log(table([['step', 'file', 'time'], ...slowest.map(({ step, file, ms }) => [step, file, seconds(ms)])], (column) => column === 2));
}

const skipped = results.flatMap(({ step, result }) => (result.skippedTests ?? []).map((test) => ({ step: step.key, ...test })));
if (skipped.length) {
  console.log(`\n${bold('Skipped')}`);
  for (const { step, file, name, reason } of skipped) console.log(`${step}  ${file} › ${name}: ${reason ?? 'no reason given'}`);
}

for (const { step, result } of results) if (result.details) console.log(`\n${bold(`${step.key}:`)}\n${result.details}`);

for (const { result } of results.filter(({ result }) => result.status === 'not run')) console.log(`\nNote: ${result.note}`);

const passed = results.reduce((sum, { result }) => sum + result.passed, 0);
const failed = results.reduce((sum, { result }) => sum + result.failed, 0);
const anyFailed = results.some(({ result }) => result.status === 'failed');
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(anyFailed || failed > 0 ? 1 : 0);
