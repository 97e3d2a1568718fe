// What the web app tells the server of its errors: no personal data, a sample, each error once a
// minute and a few a minute at most.
import { describe, expect, it } from 'vitest';
import { errorReporter, routeOf, sampleRateOf, sourceOf } from '../../../src/monitoring/errorReporting.ts';
import { scrubbed, type ClientError } from '../../../src/schemas/clientError.ts';

function reporter(random: () => number, clock = { now: 0 }) {
  const sent: ClientError[] = [];
  const errors = errorReporter({ sampleRate: 0.8, send: (report) => sent.push(report), pathname: () => '/dashboard/entity/42', random, now: () => clock.now });
  return { sent, errors, clock };
}

describe('browser error reports', () => {
  it('leave out e-mail addresses, links, tokens, long numbers, ids in the route and the script address', () => {
    expect(scrubbed('Failed for admin@demo.city at https://x.test/a?token=abc with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig and 1234567'))
      .toBe('Failed for <email> at <url> with <token> and <number>');
    expect(scrubbed('card 4111 1111 1111 1111, 4111-1111-1111-1111 or 4111111111111111; key tsa_0123456789abcdefABCDEF01 ok; 3 of 12'))
      .toBe('card <number>, <number> or <number>; key <token> ok; 3 of 12');
    expect(scrubbed('/performance-dashboard/api-users; device token ea785ec1fa40032ad03a1028'))
      .toBe('/performance-dashboard/api-users; device token <token>');
    expect(routeOf('/dashboard/entity/42')).toBe('/dashboard/entity/:id');
    expect(routeOf('/boards/4b0a7f0e-4d1c-4a57-9a3e-8c1f2b3d4e5f/print')).toBe('/boards/:id/print');
    expect(sourceOf('http://127.0.0.1:3000/assets/index-abc.js?v=1#x')).toBe('index-abc.js');
  });

  it('are a sample: 0.8 unless configured with a number from 0 to 1', () => {
    expect(sampleRateOf(undefined)).toBe(0.8);
    expect(sampleRateOf('0.25')).toBe(0.25);
    for (const wrong of ['', 'lots', '1.5', '-1']) expect(sampleRateOf(wrong)).toBe(0.8);
    const { sent, errors } = reporter(() => 0.9); // above the rate: left out
    errors.report('error', new Error('left out'));
    expect(sent).toEqual([]);
  });

  it('send an error once a minute and at most five a minute, with what and where', () => {
    const { sent, errors, clock } = reporter(() => 0.1);
    errors.report('error', new TypeError('x is undefined'), { filename: 'http://h/assets/app.js?v=2', lineno: 10, colno: 4 });
    errors.report('error', new TypeError('x is undefined'));
    expect(sent).toEqual([{ kind: 'error', message: 'TypeError: x is undefined', route: '/dashboard/entity/:id', build: 'dev', source: 'app.js', line: 10, column: 4 }]);
    for (let i = 0; i < 10; i++) errors.report('unhandled-rejection', `failure ${i}`);
    expect(sent).toHaveLength(5);
    clock.now = 61_000;
    errors.report('error', new TypeError('x is undefined'));
    expect(sent).toHaveLength(6);
  });
});
