// Finds the Chromium the browser tests run in: CHROMIUM_PATH, else Debian's /usr/bin/chromium.
// On Debian as root a missing Chromium is installed with apt-get (saying so); anywhere else the
// tests stop with the exact command that installs it. Browser tests are never skipped silently.
//
// Run directly (`node scripts/chromium.ts`) it prints the path, or exits 1 with the instructions.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium';

export class ChromiumMissingError extends Error {}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the path of an executable Chromium, installing Debian's package when that is possible. */
export function resolveChromium(log: (line: string) => void = console.log): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new ChromiumMissingError(`CHROMIUM_PATH=${configured} is not an executable file.`);
  }
  if (isExecutable(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;

  const debian = existsSync('/etc/debian_version');
  const root = process.getuid?.() === 0;
  if (debian && root) {
    log(`Chromium is missing: installing the Debian package (${INSTALL_COMMAND})`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', 'chromium']]) {
      const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
      if (result.status !== 0) {
        throw new ChromiumMissingError(`"apt-get ${args.join(' ')}" failed (exit ${result.status}); install Chromium with: ${INSTALL_COMMAND}`);
      }
    }
    if (isExecutable(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;
    throw new ChromiumMissingError(`apt-get installed chromium but ${DEFAULT_CHROMIUM} is still missing.`);
  }
  const how = debian
    ? `sudo sh -c '${INSTALL_COMMAND}'`
    : 'install Chromium with your system package manager';
  throw new ChromiumMissingError(
    `The browser tests need Chromium and none was found at ${DEFAULT_CHROMIUM}. ` +
      `Install it (${how}) or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(resolveChromium((line) => console.error(line)));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
