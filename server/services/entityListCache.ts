// Entity lists as the database built them (JSON text), per tenant and filter, until that
// tenant's entities change. Every change to entities, their types, groups or group links
// notifies all instances (CHANNELS.entitiesChanged, a trigger), which drop the tenant's lists;
// a list is also never kept longer than MAX_AGE_MS, in case a notification is lost.
// Keys hold the tenant: one tenant's list is never served to another.
export const MAX_AGE_MS = 10_000;
/** Characters of JSON kept at most, over all tenants (about 2 bytes each). */
const MAX_CHARACTERS = 32 * 1024 * 1024;

interface Entry { json: string; storedAt: number }

export interface EntityListCache {
  /** Bumped by every change of the tenant; a read started before a change must not be stored. */
  version(tenantId: string): number;
  get(tenantId: string, key: string): string | undefined;
  set(tenantId: string, key: string, json: string, versionAtStart: number): void;
  invalidate(tenantId: string): void;
}

export function entityListCache(now = () => Date.now()): EntityListCache {
  const lists = new Map<string, Map<string, Entry>>();
  const versions = new Map<string, number>();
  let characters = 0;
  const drop = (tenantId: string) => {
    for (const entry of lists.get(tenantId)?.values() ?? []) characters -= entry.json.length;
    lists.delete(tenantId);
  };
  const version = (tenantId: string) => versions.get(tenantId) ?? 0;
  return {
    version,
    get(tenantId, key) {
      const entry = lists.get(tenantId)?.get(key);
      if (!entry) return undefined;
      if (now() - entry.storedAt < MAX_AGE_MS) return entry.json;
      lists.get(tenantId)!.delete(key);
      characters -= entry.json.length;
      return undefined;
    },
    set(tenantId, key, json, versionAtStart) {
      if (version(tenantId) !== versionAtStart || json.length > MAX_CHARACTERS / 4) return;
      while (characters + json.length > MAX_CHARACTERS && lists.size) drop(lists.keys().next().value!); // the tenant cached longest ago
      const tenantLists = lists.get(tenantId) ?? new Map<string, Entry>();
      const previous = tenantLists.get(key);
      if (previous) characters -= previous.json.length;
      tenantLists.set(key, { json, storedAt: now() });
      lists.set(tenantId, tenantLists);
      characters += json.length;
    },
    invalidate(tenantId) {
      versions.set(tenantId, version(tenantId) + 1);
      drop(tenantId);
    },
  };
}

/** The same filters in any order give the same key. */
export const filtersKey = (filters: object) =>
  JSON.stringify(Object.entries(filters).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)));
