// Refused device input counted by reason and logged at most once per interval per reason
// (server/ingest/ingestProblems.ts), with an injected clock and log.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ingestProblems, tokenFingerprint } from '../../../server/ingest/ingestProblems.ts';

function setup(intervalMs?: number) {
  const lines: string[] = [];
  let clock = 1_000_000;
  const problems = ingestProblems((line) => lines.push(line), intervalMs, () => clock);
  return { problems, lines, advance: (ms: number) => { clock += ms; } };
}

describe('ingestProblems', () => {
  it('logs the first refusal of a kind at once, naming the reason, the sender and the detail', () => {
    const { problems, lines } = setup(10_000);
    problems.report('bad_token', 'token#0d652c38', 'unknown access token');
    expect(lines).toEqual(['Device input refused, bad_token: token#0d652c38: unknown access token']);
    expect(problems.totals()).toEqual({ bad_token: 1 });
  });

  it('logs nothing more within the interval, then one line saying how many since the last', () => {
    const { problems, lines, advance } = setup(10_000);
    problems.report('bad_value', 'device 7', 'a: the value is null');
    advance(1000);
    problems.report('bad_value', 'device 7', 'b: the value is null');
    advance(8999);
    problems.report('bad_value', 'device 8', 'c: the value is null');
    expect(lines).toHaveLength(1);
    advance(1000); // 10,999 ms after the first line
    problems.report('bad_value', 'device 9', 'd: the value is null');
    expect(lines).toEqual([
      'Device input refused, bad_value: device 7: a: the value is null',
      'Device input refused, bad_value: device 9: d: the value is null (3 refusals of this kind since the last report)',
    ]);
    expect(problems.totals()).toEqual({ bad_value: 4 });
  });

  it('logs again exactly when the interval has passed', () => {
    const { problems, lines, advance } = setup(10_000);
    problems.report('too_large', 'device 1', 'first');
    advance(9_999);
    problems.report('too_large', 'device 1', 'second');
    expect(lines).toHaveLength(1);
    advance(1);
    problems.report('too_large', 'device 1', 'third');
    expect(lines).toEqual([
      'Device input refused, too_large: device 1: first',
      'Device input refused, too_large: device 1: third (2 refusals of this kind since the last report)',
    ]);
  });

  it('adds no count to a line after a quiet interval with nothing suppressed', () => {
    const { problems, lines, advance } = setup(10_000);
    problems.report('bad_shape', 'device 1', 'one');
    advance(60_000);
    problems.report('bad_shape', 'device 1', 'two');
    expect(lines).toEqual(['Device input refused, bad_shape: device 1: one', 'Device input refused, bad_shape: device 1: two']);
  });

  it('limits each reason on its own', () => {
    const { problems, lines, advance } = setup(10_000);
    problems.report('bad_key', 'device 1', 'a key is empty');
    problems.report('bad_timestamp', 'device 1', 'ts is before the year 2000');
    problems.report('bad_key', 'device 2', 'a key is empty');
    advance(5000);
    problems.report('unknown_topic', 'device 3', 'v1/nope');
    expect(lines).toEqual([
      'Device input refused, bad_key: device 1: a key is empty',
      'Device input refused, bad_timestamp: device 1: ts is before the year 2000',
      'Device input refused, unknown_topic: device 3: v1/nope',
    ]);
    expect(problems.totals()).toEqual({ bad_key: 2, bad_timestamp: 1, unknown_topic: 1 });
  });

  it('reports every problem of a payload and counts them by reason, a thousand costing one line', () => {
    const { problems, lines } = setup(10_000);
    problems.reportAll([
      { reason: 'bad_value', detail: 'a: the value is null' },
      { reason: 'bad_value', detail: 'b: the value is null' },
      { reason: 'bad_key', detail: 'a key is empty' },
    ], 'device 4');
    for (let i = 0; i < 1000; i++) problems.report('malformed_json', 'device 5', 'the message is not valid JSON');
    expect(lines).toEqual([
      'Device input refused, bad_value: device 4: a: the value is null',
      'Device input refused, bad_key: device 4: a key is empty',
      'Device input refused, malformed_json: device 5: the message is not valid JSON',
    ]);
    expect(problems.totals()).toEqual({ bad_value: 2, bad_key: 1, malformed_json: 1000 });
    problems.reportAll([], 'device 6');
    expect(lines).toHaveLength(3);
  });

  it('starts with no totals and hands out a copy', () => {
    const { problems } = setup(10_000);
    expect(problems.totals()).toEqual({});
    const totals = problems.totals();
    totals.bad_token = 99;
    expect(problems.totals()).toEqual({});
  });

  it('waits 10 seconds by default', () => {
    const { problems, lines, advance } = setup();
    problems.report('write_failed', 'device 1', 'one');
    advance(9_999);
    problems.report('write_failed', 'device 1', 'two');
    expect(lines).toHaveLength(1);
    advance(1);
    problems.report('write_failed', 'device 1', 'three');
    expect(lines).toHaveLength(2);
  });
});

describe('tokenFingerprint', () => {
  it('is "token#" and the first 8 hex digits of the token\'s SHA-256', () => {
    const token = 'A1_secret-device-token';
    expect(tokenFingerprint(token)).toBe('token#0d652c38');
    expect(tokenFingerprint(token)).toBe(`token#${createHash('sha256').update(token).digest('hex').slice(0, 8)}`);
    expect(tokenFingerprint('other-token')).toBe('token#6c67163b');
  });

  it('never contains the token or a part of it longer than chance allows, hex-looking tokens included', () => {
    const tokens = ['A1_secret-device-token', 'deadbeefdeadbeef', '0d652c38abcdef12', 'token#0d652c38', 'x'.repeat(255), 'tëst-tökén-0001'];
    for (const token of tokens) {
      const fingerprint = tokenFingerprint(token);
      expect(fingerprint, token).toMatch(/^token#[0-9a-f]{8}$/);
      expect(fingerprint, token).not.toContain(token);
      expect(fingerprint, token).not.toContain(token.slice(0, 8));
    }
  });

  it('tells tokens apart and is stable', () => {
    expect(tokenFingerprint('token-1')).not.toBe(tokenFingerprint('token-2'));
    expect(tokenFingerprint('token-1')).toBe(tokenFingerprint('token-1'));
  });

  it('says "no token" without one', () => {
    expect(tokenFingerprint(undefined)).toBe('no token');
    expect(tokenFingerprint('')).toBe('no token');
  });
});
