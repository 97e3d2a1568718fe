// Parses one whole MQTT packet (packetFramer.ts cuts them) with one mqtt-packet parser per
// protocol version, shared by every connection: a frame is parsed at once, so a parser holds
// nothing of one connection when the next one's frame comes, and a connection keeps only its
// version. A parser of its own held ~1 KB a connection (its buffer list, an empty packet, its
// listeners, and as its settings the CONNECT it had read: the device's token among them) — 100 MB
// at 100,000 devices. A parser that was left with anything (an error, a short frame, bytes over)
// is dropped and the next frame gets a fresh one.
import { parser as mqttParser, type Packet } from 'mqtt-packet';
import type { ProtocolVersion } from './reasonCodes.ts';

type Parser = ReturnType<typeof mqttParser> & { settings: { protocolVersion: ProtocolVersion } };

const parsers = new Map<ProtocolVersion, Parser>();
let parsed: Packet | undefined;
let failure: Error | undefined;

function parserOf(version: ProtocolVersion): Parser {
  let parser = parsers.get(version);
  if (!parser) {
    parser = mqttParser({ protocolVersion: version }) as Parser;
    parser.on('packet', (packet: Packet) => { parsed = packet; });
    parser.on('error', (error: Error) => { failure = error; });
    parsers.set(version, parser);
  }
  return parser;
}

/** The packet the frame holds, in the protocol version's encoding; or why it cannot be read. */
export function parsePacket(frame: Buffer, version: ProtocolVersion): { packet: Packet } | { error: Error } {
  const parser = parserOf(version);
  parsed = undefined;
  failure = undefined;
  let left = 0;
  try {
    left = parser.parse(frame);
  } catch (error) {
    failure = error instanceof Error ? error : new Error('the packet cannot be read'); // a read past the end of a short packet
  }
  // a CONNECT becomes the parser's settings: back to the version's own
  parser.settings = { protocolVersion: version };
  const packet = parsed as Packet | undefined;
  const error = failure as Error | undefined;
  parsed = undefined;
  failure = undefined;
  if (error || !packet || left > 0) parsers.delete(version);
  if (error || !packet) return { error: error ?? new Error('the packet cannot be read') };
  return { packet };
}
