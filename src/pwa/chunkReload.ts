// A lazy chunk that fails to load (`vite:preloadError`: a deploy removed it, or the network
// dropped) reloads the page once, which fetches the current build; a second failure within
// RELOAD_GUARD_MS is left to the error boundary, so that a chunk missing for good cannot loop.
// While the page reloads, what waited for the chunk keeps waiting (lazyWithReload): the error
// page is not shown for a page that the reload will show.
// When it reloaded is kept in the history entry's state (it survives the reload; SPEC §9 lists the
// stored keys, and this is none of them).
import { createElement, lazy, type ComponentType } from 'react';

/** Reloads closer together than this are not repeated (ms). */
export const RELOAD_GUARD_MS = 30_000;
const FIELD = 'terrasightChunkReloadAt';

export interface HistoryEntry { readonly state: unknown; replaceState(state: unknown, unused: string): void }

/** Whether the page should reload for a failed chunk now (and notes in the history entry that it does). */
export function shouldReloadForChunk(entry: HistoryEntry, now = Date.now()): boolean {
  const state = (entry.state && typeof entry.state === 'object' ? entry.state : {}) as Record<string, unknown>;
  const last = typeof state[FIELD] === 'number' ? state[FIELD] : 0;
  if (now - last < RELOAD_GUARD_MS) return false;
  entry.replaceState({ ...state, [FIELD]: now }, '');
  return true;
}

let reloading = false;

export function reloadOnChunkFailure() {
  window.addEventListener('vite:preloadError', () => {
    // not prevented: Vite would then hand the import an undefined module instead of its error
    if (!shouldReloadForChunk(window.history)) return; // the error goes on to the error boundary
    reloading = true;
    window.location.reload();
  });
}

/** Gives each lazy component whose chunk failed a fresh attempt at its next render. */
const failedChunks = new Set<() => void>();
export function retryFailedChunks() {
  for (const retry of failedChunks) retry();
  failedChunks.clear();
}

/**
 * React's lazy, with two differences for a chunk that fails: while the page reloads for it, the
 * component stays suspended; else the error goes to the error boundary, whose "Try again" loads
 * the chunk afresh (retryFailedChunks; React's lazy would keep the failure).
 */
export function lazyWithReload<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const attempt = (): ComponentType<P> => lazy(() => load().catch((error: unknown) => {
    if (reloading) return new Promise<never>(() => {});
    failedChunks.add(() => { current = attempt(); });
    throw error;
  }));
  let current = attempt();
  return (props: P) => createElement(current, props);
}
