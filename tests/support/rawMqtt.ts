// A bare MQTT client over a TCP socket, for what a well-behaved client library will not send:
// packets written one by one (mqtt-packet), raw bytes, a PUBLISH sent twice, a PUBACK withheld.
import { generate, parser as mqttParser, type Packet } from 'mqtt-packet';
import { connect, type Socket } from 'node:net';

export interface RawMqtt {
  socket: Socket;
  /** Encodes and writes a packet in the client's protocol version. */
  send(packet: Packet): void;
  write(bytes: Buffer | string): void;
  /** The next packet received (in order), or a timeout error. */
  next(ms?: number): Promise<Packet>;
  /** Every packet received so far. */
  received: Packet[];
  /** Resolves when the server has closed the connection (its FIN, or the socket closing). */
  closed: Promise<void>;
  isClosed(): boolean;
  end(): void;
}

export function rawMqtt(port: number, version: 3 | 4 | 5 = 5): Promise<RawMqtt> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const parser = mqttParser({ protocolVersion: version });
    const received: Packet[] = [];
    const waiters: ((packet: Packet) => void)[] = [];
    let read = 0;
    let isClosed = false;
    let markClosed!: () => void;
    const closed = new Promise<void>((done) => { markClosed = done; });
    parser.on('packet', (packet: Packet) => {
      received.push(packet);
      if (waiters.length) {
        read++;
        waiters.shift()!(packet);
      }
    });
    parser.on('error', () => socket.destroy());
    socket.on('data', (chunk) => parser.parse(chunk));
    const close = () => {
      isClosed = true;
      markClosed();
    };
    socket.on('end', close);
    socket.on('close', close);
    socket.on('error', () => { /* a reset: counts as closed */ });
    socket.once('connect', () => resolve({
      socket,
      received,
      closed,
      send: (packet) => { if (!socket.destroyed) socket.write(generate(packet, { protocolVersion: version })); },
      write: (bytes) => { if (!socket.destroyed) socket.write(bytes); },
      next: (ms = 3000) => {
        if (read < received.length) return Promise.resolve(received[read++]);
        return new Promise((done, fail) => {
          const timer = setTimeout(() => {
            waiters.splice(waiters.indexOf(take), 1);
            fail(new Error(`no packet within ${ms} ms`));
          }, ms);
          const take = (packet: Packet) => {
            clearTimeout(timer);
            done(packet);
          };
          waiters.push(take);
        });
      },
      isClosed: () => isClosed,
      end: () => socket.destroy(),
    }));
    socket.once('error', reject);
  });
}

/** Connects and sends CONNECT as the device with `token`; resolves the client and its CONNACK. */
export async function rawDevice(port: number, token: string, version: 3 | 4 | 5 = 5, connectOptions: Record<string, unknown> = {}) {
  const client = await rawMqtt(port, version);
  client.send({
    cmd: 'connect', protocolId: version === 3 ? 'MQIsdp' : 'MQTT', protocolVersion: version, clean: true, keepalive: 0,
    clientId: `raw-${Math.random().toString(36).slice(2)}`, username: token, ...connectOptions,
  } as Packet);
  const connack = await client.next();
  return { client, connack };
}
