// A browser error as the web app reports it to POST /client-errors (SPEC §9: sampled at 0.8): what
// failed and where in the code, the page's route with its ids and query left out, the build —
// never who was signed in, the page's data or an address with its query. The web app scrubs what it
// sends and the server again what it logs (`scrubbedReport`): a report names nobody whoever sent it.
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';

/** SPEC §9: the share of browser errors reported (VITE_ERROR_SAMPLE_RATE changes it at build time). */
export const DEFAULT_ERROR_SAMPLE_RATE = 0.8;
export const CLIENT_ERROR_KINDS = ['error', 'unhandled-rejection', 'render'] as const;
/** Reports a tab sends at most per minute (the same error once). */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 5;
/** Reports one address may send per minute. */
export const CLIENT_ERROR_REPORTS_PER_ADDRESS = 30;

export const clientErrorSchema = {
  $id: 'client_error',
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'message'],
  properties: {
    kind: { type: 'string', enum: CLIENT_ERROR_KINDS },
    message: { type: 'string', minLength: 1, maxLength: 500, pattern: NO_NUL },
    /** The script's file name, without its address's query. */
    source: { type: 'string', maxLength: 200, pattern: NO_NUL },
    line: { type: 'integer', minimum: 0, maximum: 10_000_000 },
    column: { type: 'integer', minimum: 0, maximum: 10_000_000 },
    /** The page's path with its ids as `:id` (`/dashboard/entity/:id`). */
    route: { type: 'string', maxLength: 200, pattern: NO_NUL },
    build: { type: 'string', maxLength: 100, pattern: NO_NUL },
  },
} as const;
export type ClientError = FromSchema<typeof clientErrorSchema>;

/** Text without what could name a person or open a door: e-mail addresses, links, tokens (JWTs, `tsa_…`), card-like and long numbers. */
export function scrubbed(text: string): string {
  return text
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<email>')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    // a secret mixes in digits or capitals; a page's name (`performance-dashboard`) does not
    .replace(/\b(?=[\w-]*[0-9A-Z])[A-Za-z0-9_-]{20,}(\.[A-Za-z0-9_-]+)*\b/g, '<token>')
    // a card's 13-19 digits, grouped by spaces or dashes or not
    .replace(/\b\d(?:[ -]?\d){12,18}\b/g, '<number>')
    .replace(/\d{5,}/g, '<number>')
    .slice(0, 500);
}

/** A report with each of its texts scrubbed (what the server logs of it). */
export function scrubbedReport(report: ClientError): ClientError {
  return Object.fromEntries(Object.entries(report).map(([field, value]) => [field, typeof value === 'string' && field !== 'kind' ? scrubbed(value) : value])) as ClientError;
}
