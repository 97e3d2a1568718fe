// The open device sessions of this instance: by client key (one session per key: a second
// connection with the same token and client id takes over) and by entity id (a device may hold
// several sessions under different client ids; the server's messages go to each).

export interface RegisteredSession {
  readonly device: { entityId: number };
  readonly key: string;
}

export interface SessionRegistry<S extends RegisteredSession> {
  add(session: S): void;
  /** Forgets the session (a session that was already replaced under its key leaves the new one be). */
  remove(session: S): void;
  byKey(key: string): S | undefined;
  ofEntity(entityId: number): S[];
  /** The entities with a session. */
  entities(): number[];
  size(): number;
}

export function sessionRegistry<S extends RegisteredSession>(): SessionRegistry<S> {
  const byKey = new Map<string, S>();
  const byEntity = new Map<number, Set<S>>();
  return {
    add(session) {
      byKey.set(session.key, session);
      const sessions = byEntity.get(session.device.entityId) ?? new Set();
      sessions.add(session);
      byEntity.set(session.device.entityId, sessions);
    },
    remove(session) {
      if (byKey.get(session.key) === session) byKey.delete(session.key);
      const sessions = byEntity.get(session.device.entityId);
      if (!sessions) return;
      sessions.delete(session);
      if (sessions.size === 0) byEntity.delete(session.device.entityId);
    },
    byKey: (key) => byKey.get(key),
    ofEntity: (entityId) => [...(byEntity.get(entityId) ?? [])],
    entities: () => [...byEntity.keys()],
    size: () => byKey.size,
  };
}
