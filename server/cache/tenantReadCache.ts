// The hot reads as the database built them (JSON text), per tenant and key, until that tenant's
// data changes. Every change to the tenant, its users, entities, entity types, groups, group
// links or watchers notifies all instances (CHANNELS.tenantDataChanged, a trigger), which drop the
// tenant's reads; a read is also never kept longer than MAX_AGE_MS, in case a notification is
// lost. The tenant is part of every key: one tenant's read is never served to another.
import type { PostCommitBus } from '../events/postCommit.ts';

export const MAX_AGE_MS = 10_000;
/** Characters of JSON kept at most, over all tenants (about 2 bytes each). */
const MAX_CHARACTERS = 32 * 1024 * 1024;

interface Entry { json: string; storedAt: number }

export interface TenantReadCache {
  /** Bumped by every change of the tenant; a read started before a change must not be stored. */
  version(tenantId: string): number;
  get(tenantId: string, key: string): string | undefined;
  set(tenantId: string, key: string, json: string, versionAtStart: number): void;
  invalidate(tenantId: string): void;
  /** Every tenant's reads are stale (the changes' notifications may have been missed). */
  invalidateAll(): void;
}

export function tenantReadCache(now = () => Date.now()): TenantReadCache {
  const reads = new Map<string, Map<string, Entry>>();
  const versions = new Map<string, number>();
  /** Bumped by invalidateAll: part of every tenant's version. */
  let everyone = 0;
  let characters = 0;
  const drop = (tenantId: string) => {
    for (const entry of reads.get(tenantId)?.values() ?? []) characters -= entry.json.length;
    reads.delete(tenantId);
  };
  const version = (tenantId: string) => everyone + (versions.get(tenantId) ?? 0);
  return {
    version,
    get(tenantId, key) {
      const entry = reads.get(tenantId)?.get(key);
      if (!entry) return undefined;
      if (now() - entry.storedAt < MAX_AGE_MS) return entry.json;
      reads.get(tenantId)!.delete(key);
      characters -= entry.json.length;
      return undefined;
    },
    set(tenantId, key, json, versionAtStart) {
      if (version(tenantId) !== versionAtStart || json.length > MAX_CHARACTERS / 4) return;
      while (characters + json.length > MAX_CHARACTERS && reads.size) drop(reads.keys().next().value!); // the tenant cached longest ago
      const tenantReads = reads.get(tenantId) ?? new Map<string, Entry>();
      const previous = tenantReads.get(key);
      if (previous) characters -= previous.json.length;
      tenantReads.set(key, { json, storedAt: now() });
      reads.set(tenantId, tenantReads);
      characters += json.length;
    },
    invalidate(tenantId) {
      versions.set(tenantId, (versions.get(tenantId) ?? 0) + 1);
      drop(tenantId);
    },
    invalidateAll() {
      everyone++;
      reads.clear();
      characters = 0;
    },
  };
}

/** The same filters in any order give the same key. */
export const filtersKey = (filters: object) =>
  JSON.stringify(Object.entries(filters).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)));

/** Forgets a tenant's cached reads on each commit that changes what they show. */
export function invalidatedByCommits(cache: TenantReadCache, events: PostCommitBus) {
  events.on('resource.changed', 'read cache', ({ tenantId }) => cache.invalidate(tenantId));
  events.on('tenant.changed', 'read cache', ({ tenantId }) => cache.invalidate(tenantId));
}
