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
  // an entity's one session as it is, several in a set: nearly every device holds one
  const byEntity = new Map<number, S | Set<S>>();
  const sessionsOf = (entityId: number): S[] => {
    const held = byEntity.get(entityId);
    return held === undefined ? [] : held instanceof Set ? [...held] : [held];
  };
  return {
    add(session) {
      byKey.set(session.key, session);
      const { entityId } = session.device;
      const held = byEntity.get(entityId);
      if (held === undefined || held === session) byEntity.set(entityId, session);
      else if (held instanceof Set) held.add(session);
      else byEntity.set(entityId, new Set([held, session]));
    },
    remove(session) {
      if (byKey.get(session.key) === session) byKey.delete(session.key);
      const { entityId } = session.device;
      const held = byEntity.get(entityId);
      if (held === session) byEntity.delete(entityId);
      else if (held instanceof Set) {
        held.delete(session);
        if (held.size === 1) byEntity.set(entityId, [...held][0]);
      }
    },
    byKey: (key) => byKey.get(key),
    ofEntity: sessionsOf,
    entities: () => [...byEntity.keys()],
    size: () => byKey.size,
  };
}
