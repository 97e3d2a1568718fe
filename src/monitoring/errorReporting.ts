// Browser errors reported to the server (POST /client-errors, SPEC §9): uncaught errors, unhandled
// rejections and React's render errors, a sample of them (0.8 unless VITE_ERROR_SAMPLE_RATE says
// otherwise), each the same one once a minute and at most CLIENT_ERROR_REPORTS_PER_MINUTE a
// minute. No personal data: the message with e-mail addresses, web addresses and long tokens
// taken out, the script's file name, the page's route with its ids as `:id`, the build.
import { CLIENT_ERROR_REPORTS_PER_MINUTE, DEFAULT_ERROR_SAMPLE_RATE, scrubbed, type ClientError } from '../schemas/clientError.ts';
import { BUILD_ID } from '../pwa/appUpdates.ts';

const MINUTE_MS = 60_000;

/** A page's path with ids (numbers, UUIDs) as `:id`, and no query or fragment. */
export const routeOf = (pathname: string) =>
  pathname.split('/').map((part) => (/^\d+$|^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(part) ? ':id' : part)).join('/').slice(0, 200);

/** A script's file name, without its address's path and query. */
export const sourceOf = (filename: string | undefined) => filename?.split(/[?#]/)[0].split('/').pop()?.slice(0, 200) || undefined;

/** The configured share of errors reported: VITE_ERROR_SAMPLE_RATE when it is a number in [0, 1], else 0.8. */
export function sampleRateOf(configured: unknown): number {
  const rate = typeof configured === 'string' && configured.trim() !== '' ? Number(configured) : Number.NaN;
  return rate >= 0 && rate <= 1 ? rate : DEFAULT_ERROR_SAMPLE_RATE;
}

export interface ErrorReporterOptions {
  sampleRate: number;
  send(report: ClientError): void;
  /** The page's path now. */
  pathname(): string;
  random?: () => number;
  now?: () => number;
}

export interface ErrorReporter {
  report(kind: ClientError['kind'], error: unknown, where?: { filename?: string; lineno?: number; colno?: number }): void;
}

export function errorReporter({ sampleRate, send, pathname, random = Math.random, now = Date.now }: ErrorReporterOptions): ErrorReporter {
  let windowStart = 0;
  let sentInWindow = 0;
  const seen = new Map<string, number>();
  return {
    report(kind, error, where = {}) {
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? 'unknown error');
      const message = scrubbed(text) || 'unknown error';
      const at = now();
      if (at - windowStart >= MINUTE_MS) {
        windowStart = at;
        sentInWindow = 0;
        for (const [key, time] of seen) if (at - time >= MINUTE_MS) seen.delete(key);
      }
      const key = `${kind}:${message}`;
      if (seen.has(key) || sentInWindow >= CLIENT_ERROR_REPORTS_PER_MINUTE) return;
      seen.set(key, at);
      if (random() >= sampleRate) return;
      sentInWindow++;
      send({
        kind, message, route: routeOf(pathname()), build: BUILD_ID,
        ...(sourceOf(where.filename) ? { source: sourceOf(where.filename) } : {}),
        ...(where.lineno ? { line: where.lineno } : {}),
        ...(where.colno ? { column: where.colno } : {}),
      });
    },
  };
}

/** Posts a report; a failure is dropped (reporting must never cause errors of its own). */
function post(report: ClientError): void {
  void fetch('/client-errors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(report), keepalive: true }).catch(() => undefined);
}

/** The reporter of this page (also given React's render errors, src/main.tsx). */
export const pageErrors = errorReporter({
  sampleRate: sampleRateOf(import.meta.env.VITE_ERROR_SAMPLE_RATE),
  send: post,
  pathname: () => window.location.pathname,
});

/** Reports the page's uncaught errors and unhandled rejections. */
export function reportPageErrors(): void {
  window.addEventListener('error', (event) => pageErrors.report('error', event.error ?? event.message, event));
  window.addEventListener('unhandledrejection', (event) => pageErrors.report('unhandled-rejection', event.reason));
}
