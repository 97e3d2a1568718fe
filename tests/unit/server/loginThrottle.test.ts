import { describe, expect, it } from 'vitest';
import { loginThrottle } from '../../../server/auth/loginThrottle.ts';

describe('loginThrottle', () => {
  it('blocks an account after the limit until the window has passed', () => {
    let now = 0;
    const throttle = loginThrottle({ perAccount: 3, perAddress: 100, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
      throttle.recordFailure('a@x', '1.1.1.1');
      now += 1000;
    }
    expect(throttle.retryAfterMs('a@x', '2.2.2.2')).toBe(57_000);
    expect(throttle.retryAfterMs('b@x', '1.1.1.1')).toBe(0);
    now = 60_001;
    expect(throttle.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
  });

  it('forgets an account\'s failures after a successful sign-in', () => {
    const throttle = loginThrottle({ perAccount: 2, perAddress: 100, windowMs: 60_000 }, () => 0);
    throttle.recordFailure('a@x', 'ip');
    throttle.recordSuccess('a@x');
    throttle.recordFailure('a@x', 'ip');
    expect(throttle.retryAfterMs('a@x', 'ip')).toBe(0);
  });
});
