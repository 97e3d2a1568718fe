// Classifies database failures. Those that are not the request's fault and pass with time (a full
// disk, exhausted resources, a lost or refused connection) are answered with 503; a unique
// constraint a write ran into is named, so that the model can answer it as the client's conflict;
// a statement over its time limit and a value PostgreSQL cannot compute with are told apart for
// the work whose author should hear of them (a scheduler's complex query).

/**
 * SQLSTATE classes: 08 connection exception, 53 insufficient resources (53100 disk full), 57014 a
 * statement over its time limit, 57P admin shutdown.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57014|57P0[1-3])/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOSPC', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNAVAILABLE_MESSAGE = /connection terminated|is not queryable|no space left on device|could not (extend|write to) file|timeout exceeded when trying to connect/i;
const UNIQUE_VIOLATION = '23505';
const STATEMENT_TIMEOUT = '57014';
/** PostgreSQL's text, for a driver that passes the message without the `constraint` field. */
const UNIQUE_VIOLATION_MESSAGE = /duplicate key value violates unique constraint "([^"]+)"/;

interface DriverError { code?: unknown; message?: unknown; constraint?: unknown; cause?: unknown }

/** The error and its causes: Drizzle wraps driver errors ("Failed query: …") with the original as `cause`. */
function* causesOf(error: unknown): Generator<DriverError> {
  for (let e = error as DriverError | undefined, hops = 0; e && hops < 5; e = e.cause as DriverError | undefined, hops++) yield e;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causesOf(error)) {
    if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** A statement cut off at its time limit (57014; the embedded database's bridge answers the same). */
export const isStatementTimeout = (error: unknown) => [...causesOf(error)].some((e) => e.code === STATEMENT_TIMEOUT);

/** PostgreSQL refused a value the statement computed with (class 22: out of range, an unknown time zone). */
export const isDataException = (error: unknown) => [...causesOf(error)].some((e) => typeof e.code === 'string' && e.code.startsWith('22'));

/** The name of the unique constraint (or index) a statement violated, else undefined. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  for (const e of causesOf(error)) {
    if (e.code === UNIQUE_VIOLATION && typeof e.constraint === 'string') return e.constraint;
    const named = typeof e.message === 'string' ? UNIQUE_VIOLATION_MESSAGE.exec(e.message) : null;
    if (named) return named[1];
  }
  return undefined;
}
