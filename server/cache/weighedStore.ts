// Entries of tenants under keys, bounded by their total weight: keeping one past the bound drops
// those kept longest ago first; a tenant's entries can be listed and dropped together. What an
// entry weighs and what may be kept at all is the caller's (the KPI answers, their closed buckets).

export interface WeighedStore<V> {
  get(key: string): V | undefined;
  /** Keeps `value` under `key` (replacing what it held), dropping the entries kept longest ago while the total would pass the bound. */
  set(tenantId: string, key: string, value: V, weight: number): void;
  delete(key: string): void;
  /** The keys of the tenant's entries. */
  keysOf(tenantId: string): string[];
  /** Drops the tenant's entries (every tenant's without one). */
  clear(tenantId?: string): void;
  /** The weight of all entries kept. */
  weight(): number;
}

export function weighedStore<V>(maxWeight: number): WeighedStore<V> {
  /** In the order kept: the first goes first when the bound is reached. */
  const entries = new Map<string, { tenantId: string; value: V; weight: number }>();
  const keysByTenant = new Map<string, Set<string>>();
  let total = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.weight;
    entries.delete(key);
    const keys = keysByTenant.get(entry.tenantId)!;
    keys.delete(key);
    if (!keys.size) keysByTenant.delete(entry.tenantId);
  };

  return {
    get: (key) => entries.get(key)?.value,
    set(tenantId, key, value, weight) {
      remove(key);
      while (total + weight > maxWeight && entries.size) remove(entries.keys().next().value!);
      entries.set(key, { tenantId, value, weight });
      let keys = keysByTenant.get(tenantId);
      if (!keys) keysByTenant.set(tenantId, keys = new Set());
      keys.add(key);
      total += weight;
    },
    delete: remove,
    keysOf: (tenantId) => [...keysByTenant.get(tenantId) ?? []],
    clear(tenantId) {
      for (const key of tenantId === undefined ? [...entries.keys()] : [...keysByTenant.get(tenantId) ?? []]) remove(key);
    },
    weight: () => total,
  };
}
