// A minimal MQTT 3.1.1 device for the benchmarks that need thousands of connections in one process
// (bench/ingest.ts city): CONNECT with the access token as user name, QoS 1 PUBLISH with PUBACK
// matching, PINGREQ at the keep-alive. mqtt.js costs tens of kilobytes and a timer per client,
// which at 10,000–100,000 clients took the benchmark's own core from the server under test.
import { connect, type Socket } from 'node:net';

const CONNACK = 2, PUBLISH = 3, PUBACK = 4, PINGRESP = 13;

function remainingLength(length: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return bytes;
}

const text = (value: string) => {
  const bytes = Buffer.from(value);
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
};

function packet(first: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([first, ...remainingLength(body.length)]), body]);
}

export interface LightOptions {
  host: string;
  port: number;
  username: string;
  clientId: string;
  /** Seconds; 0: none. */
  keepalive?: number;
  /** A local address to connect from (127.0.0.x), for more source ports than one address has. */
  localAddress?: string;
}

export class LightMqttDevice {
  private socket?: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<number, (error?: Error) => void>();
  private pinger?: NodeJS.Timeout;
  private onConnack?: (code: number) => void;
  connected = false;
  /** Called once when the connection closes while it was connected (not by `end`). */
  onClose?: () => void;
  private ending = false;
  options: LightOptions;
  constructor(options: LightOptions) {
    this.options = options;
  }

  connect(timeoutMs = 30_000): Promise<void> {
    const { host, port, username, clientId, keepalive = 0, localAddress } = this.options;
    this.ending = false;
    this.buffer = Buffer.alloc(0);
    return new Promise((resolve, reject) => {
      const socket = this.socket = connect({ host, port, localAddress });
      socket.setNoDelay(true);
      const timer = setTimeout(() => fail(new Error('MQTT connect timed out')), timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      socket.once('error', fail);
      socket.on('data', (chunk) => this.read(chunk));
      socket.on('close', () => this.closed());
      this.onConnack = (code) => {
        clearTimeout(timer);
        socket.off('error', fail);
        socket.on('error', () => { /* the close handler counts it */ });
        if (code !== 0) return fail(new Error(`MQTT CONNACK ${code}`));
        this.connected = true;
        if (keepalive > 0) this.pinger = setInterval(() => socket.write(Buffer.from([0xc0, 0])), keepalive * 1000 * 0.75).unref();
        resolve();
      };
      const variable = Buffer.concat([text('MQTT'), Buffer.from([4, 0x80 | 0x02, keepalive >> 8, keepalive & 0xff])]);
      socket.write(packet(0x10, Buffer.concat([variable, text(clientId), text(username)])));
    });
  }

  /** A QoS 1 publish: resolves on its PUBACK, rejects when the connection closes first. */
  publish(topic: string, payload: string): Promise<void> {
    if (!this.connected || !this.socket) return Promise.reject(new Error('not connected'));
    const id = this.nextId;
    this.nextId = this.nextId === 0xffff ? 1 : this.nextId + 1;
    const body = Buffer.concat([text(topic), Buffer.from([id >> 8, id & 0xff]), Buffer.from(payload)]);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (error) => (error ? reject(error) : resolve()));
      this.socket!.write(packet(0x32, body));
    });
  }

  /** Closes the connection (DISCONNECT first, unless `abrupt`). */
  end(abrupt = false): Promise<void> {
    this.ending = true;
    const socket = this.socket;
    if (!socket || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      if (abrupt) socket.destroy();
      else socket.end(Buffer.from([0xe0, 0]));
    });
  }

  private closed() {
    clearInterval(this.pinger);
    const wasConnected = this.connected;
    this.connected = false;
    for (const settle of this.waiting.values()) settle(new Error('connection closed'));
    this.waiting.clear();
    if (wasConnected && !this.ending) this.onClose?.();
  }

  private read(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.buffer.length < 2) return;
      let length = 0, multiplier = 1, at = 1, byte: number;
      do {
        if (at >= this.buffer.length) return;
        byte = this.buffer[at++];
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
      } while (byte & 0x80);
      if (this.buffer.length < at + length) return;
      const type = this.buffer[0] >> 4;
      const body = this.buffer.subarray(at, at + length);
      this.buffer = this.buffer.subarray(at + length);
      if (type === CONNACK) this.onConnack?.(body[1]);
      else if (type === PUBACK) {
        const id = (body[0] << 8) | body[1];
        const settle = this.waiting.get(id);
        this.waiting.delete(id);
        settle?.();
      } else if (type === PUBLISH || type === PINGRESP) {
        // Nothing subscribes: a PUBLISH from the server (none expected) or the keep-alive's answer.
      }
    }
  }
}
