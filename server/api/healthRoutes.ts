// GET /health (docs/operations.md "Health"): an instance that answers at all is alive; it is ready
// (200) when its database answers within HEALTH_TIMEOUT_MS, else 503 — a balancer then sends it no
// new work. Open to anyone, so one probe of the database at a time serves every caller for a
// second. A stopping instance first drains (`app.drain()`, SHUTDOWN_DRAIN_MS): it reads as not ready
// while it still serves, so that the balancer sends it nothing new before it closes; while it
// closes, Fastify itself answers 503.
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on this instance reads as not ready (it is about to stop); it serves as before. */
    drain(): void;
  }
}

export const HEALTH_TIMEOUT_MS = 2_000;
const PROBE_KEPT_MS = 1_000;

const healthSchema = {
  type: 'object', additionalProperties: false, required: ['alive', 'ready'],
  properties: { alive: { type: 'boolean', const: true }, ready: { type: 'boolean' } },
} as const;

/** Whether the database answers, asked at most once a second (`ping` rejects or outlasts the timeout: not ready). */
export function readinessProbe(ping: () => Promise<unknown>, now = () => Date.now()): () => Promise<boolean> {
  let last: { at: number; ready: boolean } | undefined;
  let pending: Promise<boolean> | undefined;
  const probe = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS); });
    try {
      return await Promise.race([ping().then(() => true, () => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    if (last && now() - last.at < PROBE_KEPT_MS) return Promise.resolve(last.ready);
    pending ??= probe().then((ready) => {
      last = { at: now(), ready };
      pending = undefined;
      return ready;
    });
    return pending;
  };
}

export function healthRoutes(app: FastifyInstance, ready: () => Promise<boolean>) {
  let draining = false;
  app.decorate('drain', () => { draining = true; });
  app.get('/health', {
    schema: {
      tags: ['operations'], summary: 'Alive (it answers) and ready (its database answers): 200 when ready, 503 when not',
      response: { 200: healthSchema, 503: healthSchema },
    },
  }, async (_request, reply) => {
    const isReady = !draining && await ready();
    return reply.code(isReady ? 200 : 503).header('cache-control', 'no-store').send({ alive: true, ready: isReady });
  });
}
