// Turns a failure at start-up into one plain sentence naming the path or host and the cause,
// instead of a stack trace (the server then exits with code 1).
import { ConfigError } from './config.ts';
import { DataDirLockedError } from './db/dataDirLock.ts';
import { ModelStorageError } from './resources/modelStorageError.ts';

const FILE_CAUSES: Record<string, string> = {
  ENOTDIR: 'it is not a directory (a file is in the way)',
  EEXIST: 'it is not a directory (a file is in the way)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'the disk reported an input/output error',
};

const DATABASE_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is PostgreSQL running there?)',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ECONNRESET: 'the connection was reset',
  '28P01': 'the password was refused',
  '28000': 'the server refused this user or address',
  '3D000': 'the database does not exist',
  '42501': 'the user lacks a permission it needs',
  '53300': 'the server has too many connections',
};

/** host:port/database of a connection string, without user or password. */
function safeLocation(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

function codeOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, hops = 0; e && hops < 5; e = e.cause as typeof e, hops++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function startupFailureSentence(error: unknown, where: { dataDir: string; databaseUrl?: string }): string {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof ModelStorageError) return error.message;
  const code = codeOf(error);
  if (code === 'EADDRINUSE' || code === 'EACCES' && (error as { syscall?: string }).syscall === 'listen') {
    const { address, port } = error as { address?: string; port?: number };
    return `Cannot listen on ${address}:${port}: ${code === 'EADDRINUSE' ? 'another program uses this port' : 'permission denied'}. Stop it, or set PORT (and HOST) to another value.`;
  }
  if (where.databaseUrl) {
    const cause = (code && DATABASE_CAUSES[code]) ?? (/no space left/i.test(messageOf(error)) ? 'its disk is full' : undefined);
    return `Cannot use the PostgreSQL database at ${safeLocation(where.databaseUrl)}: ${cause ?? messageOf(error).split('\n')[0]}.`;
  }
  const path = (error as { path?: unknown }).path;
  const cause = (code && FILE_CAUSES[code]) ?? (/no space left/i.test(messageOf(error)) ? FILE_CAUSES.ENOSPC : undefined);
  const named = typeof path === 'string' && path !== where.dataDir ? ` (${path})` : '';
  return `Cannot use the data directory ${where.dataDir}${named}: ${cause ?? messageOf(error).split('\n')[0]}. Set DATA_DIR to a writable directory.`;
}
