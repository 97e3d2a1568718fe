// New versions of the web app (SPEC §4: a persistent notice with Refresh; checked hourly in
// production). The service worker (vite-plugin-pwa, vite.config.ts) precaches a build's shell and
// lazy chunks; a new build's worker installs beside the running one and waits. It is looked for
// hourly, when the tab gets the focus or becomes visible, and when the server announces a build
// other than this page's (src/pwa/useWebAppBuild.ts). A look that fails (offline, a 5xx), or that
// finds no new worker after such an announcement (behind a balancer, an instance not yet upgraded
// may have answered), is tried again a minute later, silently. Refresh tells the newest waiting worker to take over — read at
// the click, however many updates were ignored before — and every tab it then controls reloads,
// once.

/** SPEC §9: the service worker's check, 3,600,000 ms. */
export const CHECK_EVERY_MS = 3_600_000;
/** A failed look is tried again after this long. */
export const RETRY_AFTER_MS = 60_000;
const WORKER_URL = '/sw.js';

export interface ServiceWorkerUpdates {
  /** Whether a new version waits to be activated. */
  updateReady(): boolean;
  /** Tells `listener` when a new version becomes ready; answers how to stop. */
  onChange(listener: () => void): () => void;
  /** Looks for a new version now (a failure is retried later, silently). */
  check(): Promise<void>;
  /** The server serves `buildId`: looks for it when it is not this page's. */
  announced(buildId: string | null | undefined): void;
  /** Activates the newest waiting version; its tabs reload. */
  refresh(): void;
}

export interface UpdateEnvironment {
  container: ServiceWorkerContainer;
  buildId: string;
  reload(): void;
  setTimer(run: () => void, ms: number): void;
  every(run: () => void, ms: number): void;
  /** Calls `run` when the page gets the focus or becomes visible. */
  onAttention(run: () => void): void;
}

export function serviceWorkerUpdates(environment: UpdateEnvironment): ServiceWorkerUpdates & { start(): Promise<void> } {
  const { container } = environment;
  const listeners = new Set<() => void>();
  let registration: ServiceWorkerRegistration | undefined;
  let ready = false;
  let retrying = false;
  let reloading = false;
  // A page without a worker yet (a first visit) is taken over by the first one: nothing to reload then.
  let controlled = !!container.controller;

  const markReady = () => {
    if (ready || !container.controller) return;
    ready = true;
    for (const listener of listeners) listener();
  };
  const watch = (found: ServiceWorkerRegistration) => {
    if (found.waiting) markReady();
    found.addEventListener('updatefound', () => {
      const installing = found.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') markReady();
      });
    });
  };

  const retryLater = (look: () => Promise<void>) => {
    if (retrying) return;
    retrying = true;
    environment.setTimer(() => {
      retrying = false;
      void look();
    }, RETRY_AFTER_MS);
  };
  const check = async () => {
    if (!registration) return;
    try {
      await registration.update();
    } catch {
      retryLater(check);
    }
  };
  /** Looks until the announced build's worker is found. */
  const lookForAnnounced = async () => {
    await check();
    if (!ready && !registration?.installing) retryLater(lookForAnnounced);
  };

  return {
    async start() {
      container.addEventListener('controllerchange', () => {
        if (!controlled) {
          controlled = true;
          return;
        }
        if (reloading) return;
        reloading = true;
        environment.reload();
      });
      registration = await container.register(WORKER_URL, { scope: '/' });
      watch(registration);
      environment.every(() => void check(), CHECK_EVERY_MS);
      environment.onAttention(() => void check());
    },
    updateReady: () => ready,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check,
    announced(buildId) {
      if (buildId && buildId !== environment.buildId) void lookForAnnounced();
    },
    refresh() {
      const waiting = registration?.waiting;
      if (waiting) waiting.postMessage({ type: 'SKIP_WAITING' });
      else environment.reload();
    },
  };
}
