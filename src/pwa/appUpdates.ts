// This page's build and its service worker's updates (serviceWorkerUpdates.ts), started once in a
// production build where the browser has service workers; elsewhere (the dev server, tests) a
// stand-in that never has an update.
import { serviceWorkerUpdates, type ServiceWorkerUpdates } from './serviceWorkerUpdates.ts';

declare const __BUILD_ID__: string;

/** The build of the web app this page runs (vite.config.ts defines it; 'dev' without a build). */
export const BUILD_ID = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

const noUpdates: ServiceWorkerUpdates = {
  updateReady: () => false,
  onChange: () => () => {},
  check: async () => {},
  announced: () => {},
  refresh: () => window.location.reload(),
};

function startUpdates(): ServiceWorkerUpdates {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return noUpdates;
  const updates = serviceWorkerUpdates({
    container: navigator.serviceWorker,
    buildId: BUILD_ID,
    reload: () => window.location.reload(),
    setTimer: (run, ms) => { window.setTimeout(run, ms); },
    every: (run, ms) => { window.setInterval(run, ms); },
    onAttention(run) {
      window.addEventListener('focus', run);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') run();
      });
    },
  });
  updates.start().catch((error: unknown) => console.warn('The service worker could not be registered', error));
  return updates;
}

export const appUpdates = startUpdates();
