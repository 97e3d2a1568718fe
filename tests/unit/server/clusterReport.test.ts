// The rules a cluster run counts by (scripts/clusterReport.ts): what a subscriber must have had,
// which commands a lamp must have received, how long devices were away after a kill.
import { describe, expect, it } from 'vitest';
import { downlinkDelivery, liveDelivery, lostPoints, quantile, slowestReconnect, type Ack, type Heard } from '../../../scripts/clusterReport.ts';

const ack = (entity: number, seq: number, at: number): Ack => ({ entity, seq, ts: 1_000 + seq, at });
const subscriber = (heard: Record<number, Heard[]>, spans = [{ from: 0, to: Infinity }]) =>
  ({ entities: Object.keys(heard).map(Number), spans, heard: new Map(Object.entries(heard).map(([id, list]) => [Number(id), list])) });

describe('liveDelivery', () => {
  it('counts a point had when the subscriber heard it, with its delay', () => {
    const result = liveDelivery([ack(1, 1, 2_000)], [subscriber({ 1: [{ seq: 1, at: 2_040 }] })], 1_000);
    expect(result).toEqual({ expected: 1, missed: 0, delays: [40], missedSamples: [] });
  });

  it('counts a point had when a newer one of its device came instead (written in one batch), its delay until then', () => {
    const result = liveDelivery([ack(1, 1, 2_000), ack(1, 2, 2_001)], [subscriber({ 1: [{ seq: 2, at: 2_050 }] })], 1_000);
    expect(result).toEqual({ expected: 2, missed: 0, delays: [50, 49], missedSamples: [] });
  });

  it('counts a point missed when nothing as new of its device was heard while the subscriber was connected', () => {
    const spans = [{ from: 0, to: 5_000 }, { from: 6_000, to: Infinity }];
    const result = liveDelivery([ack(1, 1, 2_000), ack(1, 2, 3_000)], [subscriber({ 1: [{ seq: 1, at: 2_010 }, { seq: 2, at: 7_000 }] }, spans)], 1_000);
    expect(result).toMatchObject({ expected: 2, missed: 1 });
    // placed in the connection it was missed in: 3 s after it opened, 2 s before it closed
    expect(result.missedSamples).toEqual([{ subscriber: 0, entity: 1, seq: 2, at: 3_000, afterConnectedMs: 3_000, beforeLeftMs: 2_000 }]);
  });

  it('does not count points of other devices, or made just after a (re)connection or just before a departure', () => {
    const spans = [{ from: 1_000, to: 5_000 }];
    const acks = [ack(2, 1, 3_000), ack(1, 1, 1_500), ack(1, 2, 4_500), ack(1, 3, 3_000)];
    const result = liveDelivery(acks, [subscriber({ 1: [{ seq: 3, at: 3_010 }] }, spans)], 1_000);
    expect(result).toEqual({ expected: 1, missed: 0, delays: [10], missedSamples: [] });
  });
});

describe('downlinkDelivery', () => {
  const connected = new Map([[7, [{ from: 0, to: Infinity }]]]);

  it('measures a command until its lamp received it', () => {
    expect(downlinkDelivery([{ entity: 7, level: 13, at: 1_000 }], [{ entity: 7, level: 13, at: 1_030 }], connected)).toEqual({ missed: 0, delays: [30] });
  });

  it('counts a command replaced by a newer one as received when the newer one arrived, and one never received as missed', () => {
    const sent = [{ entity: 7, level: 13, at: 1_000 }, { entity: 7, level: 17, at: 2_000 }, { entity: 8, level: 23, at: 2_000 }];
    expect(downlinkDelivery(sent, [{ entity: 7, level: 17, at: 2_100 }], connected)).toEqual({ missed: 1, delays: [1_100, 100] });
  });

  it('does not measure the delay of a command to a lamp that was away', () => {
    const away = new Map([[7, [{ from: 0, to: 900 }, { from: 4_000, to: Infinity }]]]);
    expect(downlinkDelivery([{ entity: 7, level: 13, at: 1_000 }], [{ entity: 7, level: 13, at: 4_100 }], away)).toEqual({ missed: 0, delays: [] });
  });

  it('does not take a receipt from before the sending', () => {
    expect(downlinkDelivery([{ entity: 7, level: 13, at: 1_000 }], [{ entity: 7, level: 13, at: 500 }], connected)).toEqual({ missed: 1, delays: [] });
  });
});

describe('slowestReconnect', () => {
  it('is the longest a device whose connection ended at a kill was away; one still away counts until now', () => {
    const spans = [
      [{ from: 0, to: 10_100 }, { from: 13_000, to: Infinity }],
      [{ from: 0, to: Infinity }],
      [{ from: 0, to: 10_500 }, { from: 11_000, to: Infinity }],
    ];
    expect(slowestReconnect([10_000], spans, 20_000)).toBe(3_000);
    expect(slowestReconnect([10_000], [[{ from: 0, to: 10_200 }]], 25_000)).toBe(15_000);
    expect(slowestReconnect([], spans, 20_000)).toBe(0);
  });
});

describe('lostPoints and quantile', () => {
  it('counts acknowledged points not stored, by device and time', () => {
    expect(lostPoints([ack(1, 1, 0), ack(1, 2, 0), ack(2, 1, 0)], new Set(['1:1001', '2:1001']))).toBe(1);
  });

  it('takes the nearest-rank quantile', () => {
    expect(quantile([], 0.95)).toBe(0);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile(Array.from({ length: 100 }, (_, n) => n + 1), 0.95)).toBe(95);
  });
});
