// A lazy chunk that fails to load (`vite:preloadError`: a deploy removed it, or the network
// dropped) reloads the page once, which fetches the current build; a second failure within
// RELOAD_GUARD_MS is left to the error boundary, so that a chunk missing for good cannot loop.
// When it reloaded is kept in the history entry's state (it survives the reload; SPEC §9 lists the
// stored keys, and this is none of them).

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

export function reloadOnChunkFailure() {
  window.addEventListener('vite:preloadError', (event) => {
    if (!shouldReloadForChunk(window.history)) return; // the error goes on to the error boundary
    event.preventDefault();
    window.location.reload();
  });
}
