// What a cluster run (scripts/clusterRun.ts) makes of what its devices, subscribers and commands
// recorded: pure functions, so that the rules are plain to read and tested on their own
// (tests/unit/server/clusterReport.test.ts).
//
// Live updates carry a device's latest values: points of one device written in one batch reach
// subscribers as one update with the newest of them. So a subscriber has an acknowledged point
// when it heard that point or a newer one of the same device; its delay is until then.

/** A point the platform acknowledged (PUBACK) at `at` (ms). */
export interface Ack { entity: number; seq: number; ts: number; at: number }
/** A connection from `from` to `to` (ms; Infinity while open). */
export interface Span { from: number; to: number }
/** Opens a connection span now. */
export const openSpan = (spans: Span[]) => { spans.push({ from: Date.now(), to: Infinity }); };
/** Closes the open connection span, if any, now. */
export function closeSpan(spans: Span[]) {
  const open = spans.at(-1);
  if (open && open.to === Infinity) open.to = Date.now();
}
/** Whether the last span is still open. */
export const isOpen = (spans: Span[]) => spans.at(-1)?.to === Infinity;

/** A point a subscriber heard of, at `at`. */
export interface Heard { seq: number; at: number }
/** A setDim command a lamp received. */
export interface CommandHeard { entity: number; level: number; at: number }
/** A command sent to a lamp at `at` (just before the API call). */
export interface CommandSent { entity: number; level: number; at: number }

/** The `p`-quantile (0-1) of `values` (nearest rank), 0 for none. */
export function quantile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Acknowledged points missing from the database (`stored` holds `entity:ts`). */
export const lostPoints = (acks: Ack[], stored: Set<string>) => acks.filter((ack) => !stored.has(`${ack.entity}:${ack.ts}`)).length;

export interface LiveDelivery {
  /** Points acknowledged while a subscriber of their device was surely subscribed, counted per subscriber. */
  expected: number;
  /** Of those, the ones the subscriber never had (neither the point nor a newer one of its device) while connected. */
  missed: number;
  /** How long after the acknowledgement each expected point was had (ms). */
  delays: number[];
  /** The first few missed, each placed in its subscriber's connection (for the report of a failure). */
  missedSamples: MissedUpdate[];
}

/** A missed update: its device and point, and its acknowledgement's time after the subscriber connected and before it left (ms). */
export interface MissedUpdate { subscriber: number; entity: number; seq: number; at: number; afterConnectedMs: number; beforeLeftMs: number | null }

/** Missed updates described in the report, at most. */
const MISSED_SAMPLES = 10;

/**
 * Every point acknowledged while a subscriber of its device was connected, at least `marginMs` after
 * it (re)connected (its subscription is sent after the connection) and before it went away (what
 * was under way may not have reached it), must be had by that subscriber before it went away.
 */
export function liveDelivery(acks: Ack[], subscribers: { entities: number[]; spans: Span[]; heard: Map<number, Heard[]> }[], marginMs: number): LiveDelivery {
  const result: LiveDelivery = { expected: 0, missed: 0, delays: [], missedSamples: [] };
  for (const [index, { entities, spans, heard }] of subscribers.entries()) {
    const watched = new Set(entities);
    for (const ack of acks) {
      if (!watched.has(ack.entity)) continue;
      const span = spans.find((candidate) => candidate.from + marginMs <= ack.at && ack.at + marginMs <= candidate.to);
      if (!span) continue;
      result.expected++;
      const had = heard.get(ack.entity)?.find((entry) => entry.seq >= ack.seq && entry.at <= span.to);
      if (had) result.delays.push(Math.max(0, had.at - ack.at));
      else {
        result.missed++;
        if (result.missedSamples.length < MISSED_SAMPLES) {
          result.missedSamples.push({
            subscriber: index, entity: ack.entity, seq: ack.seq, at: ack.at,
            afterConnectedMs: ack.at - span.from, beforeLeftMs: span.to === Infinity ? null : span.to - ack.at,
          });
        }
      }
    }
  }
  return result;
}

/**
 * The longest a device was away after a kill: for each kill, every device whose connection ended
 * within `windowMs` after it, until its next connection (or `now`, when it has none).
 */
export function slowestReconnect(kills: number[], spans: Iterable<Span[]>, now: number, windowMs = 2_000): number {
  let slowest = 0;
  for (const kill of kills) {
    for (const deviceSpans of spans) {
      const ended = deviceSpans.find((span) => span.to >= kill && span.to <= kill + windowMs);
      if (!ended) continue;
      const next = deviceSpans.find((span) => span.from > ended.to);
      slowest = Math.max(slowest, (next?.from ?? now) - kill);
    }
  }
  return slowest;
}

/**
 * Commands sent, and whether and how soon their lamp received them. A newer command of the same
 * method replaces one not yet received (a lamp that was away gets only its latest), so a command
 * counts as received when the lamp received it or a command sent to it later. Its delay counts only
 * when the lamp was connected from the sending until it received it (a lamp away is not the
 * platform's delay).
 */
export function downlinkDelivery(sent: CommandSent[], heard: CommandHeard[], lampSpans: Map<number, Span[]>): { missed: number; delays: number[] } {
  const delays: number[] = [];
  let missed = 0;
  for (const command of sent) {
    const levels = new Set(sent.filter((other) => other.entity === command.entity && other.at >= command.at).map((other) => other.level));
    const received = heard.find((entry) => entry.entity === command.entity && entry.at >= command.at && levels.has(entry.level));
    if (!received) {
      missed++;
      continue;
    }
    const connected = lampSpans.get(command.entity)?.some((span) => span.from <= command.at && received.at <= span.to);
    if (connected) delays.push(received.at - command.at);
  }
  return { missed, delays };
}
