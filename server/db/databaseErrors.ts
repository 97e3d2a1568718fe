// Recognises database failures that are not the request's fault and pass with time: a full disk,
// exhausted resources, a lost or refused connection. The API answers them with 503.

/**
 * SQLSTATE classes: 08 connection exception, 53 insufficient resources (53100 disk full), 57014 a
 * statement over its time limit, 57P admin shutdown.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57014|57P0[1-3])/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOSPC', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNAVAILABLE_MESSAGE = /connection terminated|is not queryable|no space left on device|could not (extend|write to) file|timeout exceeded when trying to connect/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps driver errors ("Failed query: …") with the original as `cause`.
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, hops = 0; e && hops < 5; e = e.cause as typeof e, hops++) {
    if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}
