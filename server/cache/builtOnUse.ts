// Entries built from the database on first use and kept current by changes afterwards (the map's
// grids, the colour-by attributes' columns): the first caller builds one and everyone asking
// meanwhile waits for that build; an entry older than `maxAgeMs` is built again in the background
// while it keeps answering (the safety net for a change never heard); together they hold at most
// `maxSize` (by `sizeOf`), the least recently used going first.

export interface BuiltEntry {
  /** Settles when the entry is built. */
  ready: Promise<void>;
  builtAt: number;
  /** Set while a build is under way (the changes heard meanwhile). */
  heard?: unknown;
  rebuilding?: boolean;
}

export interface BuiltOnUseOptions<T> { maxAgeMs: number; maxSize: number; sizeOf(entry: T): number; now(): number }

export function builtOnUse<T extends BuiltEntry>({ maxAgeMs, maxSize, sizeOf, now }: BuiltOnUseOptions<T>) {
  /** In order of last use, the latest last. */
  const entries = new Map<string, T>();
  return {
    entries,

    /** The entry under `key`, built (`first`: by this caller) when absent, built again in the background when old. */
    async take(key: string, create: () => T, build: (entry: T, first: boolean) => Promise<void>): Promise<T> {
      let entry = entries.get(key);
      if (!entry) {
        const created = create();
        created.ready = build(created, true).catch((error: unknown) => {
          entries.delete(key);
          throw error;
        });
        entry = created;
      } else if (!entry.rebuilding && !entry.heard && now() - entry.builtAt > maxAgeMs) {
        const stale = entry;
        stale.rebuilding = true;
        void build(stale, false).catch(() => { /* the old entry keeps answering; the next use tries again */ }).finally(() => { stale.rebuilding = false; });
      }
      entries.delete(key);
      entries.set(key, entry);
      await entry.ready;
      return entry;
    },

    /** Drops the least recently used entries while they hold more than `maxSize` (never the last one). */
    evict() {
      let held = 0;
      for (const entry of entries.values()) held += sizeOf(entry);
      for (const [key, entry] of entries) {
        if (held <= maxSize || entries.size === 1) return;
        held -= sizeOf(entry);
        entries.delete(key);
      }
    },
  };
}
