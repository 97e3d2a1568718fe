// Cuts the bytes of one connection into whole MQTT packets. The fixed header says how long a
// packet is (a type byte, then the remaining length in 1 to 4 bytes); a packet longer than the
// limit is refused as soon as its header is read, before any of its body is kept, so a header
// announcing 200 MB costs five bytes. Bytes of packets not yet handled stay as they came (no copy
// unless a packet spans two reads).

export type Frame =
  | { kind: 'packet'; bytes: Buffer }
  /** The packet's header announces `bytes` (header included), over the limit. */
  | { kind: 'too_large'; bytes: number }
  /** The remaining length is not a valid variable byte integer. */
  | { kind: 'malformed' };

export interface PacketFramer {
  push(chunk: Buffer): void;
  /** The next whole packet or what is wrong with it; undefined until more bytes arrive. */
  next(): Frame | undefined;
  /** Bytes received and not yet handed out. */
  buffered(): number;
  /** Forgets what is buffered. */
  clear(): void;
}

export function packetFramer(maxPacketBytes: number): PacketFramer {
  let chunks: Buffer[] = [];
  let length = 0;

  const byteAt = (index: number) => {
    for (const chunk of chunks) {
      if (index < chunk.length) return chunk[index];
      index -= chunk.length;
    }
    return undefined;
  };

  /** Takes the first `count` buffered bytes (count <= length). */
  const take = (count: number): Buffer => {
    length -= count;
    const first = chunks[0];
    if (first.length >= count) {
      const bytes = first.subarray(0, count);
      if (first.length === count) chunks.shift();
      else chunks[0] = first.subarray(count);
      return bytes;
    }
    const bytes = Buffer.allocUnsafe(count);
    let copied = 0;
    while (copied < count) {
      const chunk = chunks[0];
      const part = Math.min(chunk.length, count - copied);
      chunk.copy(bytes, copied, 0, part);
      copied += part;
      if (part === chunk.length) chunks.shift();
      else chunks[0] = chunk.subarray(part);
    }
    return bytes;
  };

  return {
    push(chunk) {
      if (chunk.length === 0) return;
      chunks.push(chunk);
      length += chunk.length;
    },
    next() {
      if (length < 2) return undefined;
      let remaining = 0;
      let multiplier = 1;
      let headerBytes = 1;
      for (;;) {
        const byte = byteAt(headerBytes);
        if (byte === undefined) return undefined;
        remaining += (byte & 0x7f) * multiplier;
        headerBytes++;
        if ((byte & 0x80) === 0) break;
        if (headerBytes === 5) return { kind: 'malformed' };
        multiplier *= 128;
      }
      const total = headerBytes + remaining;
      if (total > maxPacketBytes) return { kind: 'too_large', bytes: total };
      if (length < total) return undefined;
      return { kind: 'packet', bytes: take(total) };
    },
    buffered: () => length,
    clear() {
      chunks = [];
      length = 0;
    },
  };
}
