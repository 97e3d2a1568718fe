// `npm run dev`: the server (API, GraphQL) plus Vite's hot-reloading dev server, which proxies
// API calls to it. Open the address Vite prints (5173 by default).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const children = [
  spawn(process.execPath, ['--watch-path=server', '--watch-path=src/schemas', join('server', 'main.ts')], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js')], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});
