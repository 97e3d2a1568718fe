// A typed in-process event bus: what happened is emitted once, where it happened, and every part
// that reacts to it subscribes under its own name. A subscriber that throws or rejects is logged
// once with its name and counted; it never fails the emitter nor keeps the others from hearing.

/** The events a bus carries, by name: each one's payload. */
export type EventMap = { [event: string]: unknown };

export type Reaction<P> = (payload: P) => void | Promise<unknown>;

export interface SubscriberFailure { event: string; subscriber: string; error: unknown }

export interface EventBus<E extends EventMap> {
  /** `subscriber` names the reaction in the log and in the failure counts. Returns: stop hearing. */
  on<K extends keyof E & string>(event: K, subscriber: string, react: Reaction<E[K]>): () => void;
  /** Tells every subscriber, in the order they subscribed; never throws. */
  emit<K extends keyof E & string>(event: K, payload: E[K]): void;
  /** Failures so far, by `event → subscriber`. */
  failures(): Record<string, number>;
}

export function eventBus<E extends EventMap>(onFailure: (failure: SubscriberFailure) => void): EventBus<E> {
  const subscribers = new Map<string, { name: string; react: Reaction<never> }[]>();
  const failed = new Map<string, number>();
  const fail = (event: string, subscriber: string, error: unknown) => {
    const key = `${event} → ${subscriber}`;
    failed.set(key, (failed.get(key) ?? 0) + 1);
    try {
      onFailure({ event, subscriber, error });
    } catch { /* the failure's own report must not fail the emitter either */ }
  };
  return {
    on(event, name, react) {
      const list = subscribers.get(event) ?? [];
      const entry = { name, react: react as Reaction<never> };
      subscribers.set(event, [...list, entry]);
      return () => subscribers.set(event, (subscribers.get(event) ?? []).filter((other) => other !== entry));
    },
    emit(event, payload) {
      for (const { name, react } of subscribers.get(event) ?? []) {
        try {
          const result = (react as Reaction<typeof payload>)(payload);
          if (result instanceof Promise) result.catch((error: unknown) => fail(event, name, error));
        } catch (error) {
          fail(event, name, error);
        }
      }
    },
    failures: () => Object.fromEntries(failed),
  };
}
