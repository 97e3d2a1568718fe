// The tenant's list of origins whose web pages a board frames with their scripts (tenant attribute
// `iframe_origins`; docs/decisions.md "Boards in the web app", "Web pages"). Set with
// PUT /tenant/iframe-origins by a board administrator (the whole performance.board permission).
import type { FromSchema } from 'json-schema-to-ts';

/** An https origin: scheme, host, optional port — no path, no user info (`.` written `\x2E`: the bounds lint reads a bare `.` as "any character"). */
export const FRAME_ORIGIN_PATTERN = '^https://[A-Za-z0-9\\x2E-]+(?::[0-9]{1,5})?$';
export const FRAME_ORIGINS_MAX = 50;
export const FRAME_ORIGIN_INVALID_MESSAGE = 'An allowed origin is https:// and a host name, with a port if needed, and nothing more.';

export const FRAME_ORIGINS_ACCESS = { module: 'performance-dashboard', permission: 'performance.board.*' } as const;

export const frameOriginsSchema = {
  $id: 'frame_origins',
  type: 'object',
  additionalProperties: false,
  required: ['origins'],
  properties: {
    origins: {
      type: 'array', maxItems: FRAME_ORIGINS_MAX, uniqueItems: true,
      items: { type: 'string', minLength: 9, maxLength: 260, pattern: FRAME_ORIGIN_PATTERN, 'x-errors': { pattern: 'FRAME_ORIGIN_INVALID' } },
    },
  },
  examples: [{ origins: ['https://grafana.example.com', 'https://status.example.com:8443'] }],
} as const;
export type FrameOrigins = FromSchema<typeof frameOriginsSchema>;

const originExpression = new RegExp(FRAME_ORIGIN_PATTERN);

/** The tenant's trusted frame origins from its attributes: https origins only, as the list holds them. */
export function trustedFrameOrigins(attributes: Record<string, unknown> | undefined): string[] {
  const origins = attributes?.iframe_origins;
  if (!Array.isArray(origins)) return [];
  return origins.filter((origin): origin is string => typeof origin === 'string' && originExpression.test(origin));
}
