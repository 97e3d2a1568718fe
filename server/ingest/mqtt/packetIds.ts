// Packet identifiers of the messages the server sends to one device session (QoS 1): 1 to
// 65535, taken in turn and skipping those still waiting for their PUBACK, so an id is never
// reused while the device may still acknowledge its earlier message.
export interface PacketIds {
  /** A free id, or undefined when all 65535 are in use. */
  take(): number | undefined;
  release(id: number): void;
  inUse(id: number): boolean;
  /** Ids in use. */
  size(): number;
}

const MAX_ID = 65535;

export function packetIds(first = 1): PacketIds {
  const used = new Set<number>();
  let next = Math.min(Math.max(1, Math.floor(first)), MAX_ID);
  return {
    take() {
      if (used.size >= MAX_ID) return undefined;
      while (used.has(next)) next = next === MAX_ID ? 1 : next + 1;
      const id = next;
      used.add(id);
      next = id === MAX_ID ? 1 : id + 1;
      return id;
    },
    release: (id) => { used.delete(id); },
    inUse: (id) => used.has(id),
    size: () => used.size,
  };
}
