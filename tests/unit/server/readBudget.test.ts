import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/errors.ts';
import { readBudget } from '../../../server/services/readBudget.ts';
import type { Caller } from '../../../server/auth/caller.ts';

const caller = (userId: string, tenantId = 't1') => ({ userId, tenantId }) as Caller;

/** A read that ends when told to, recording how many run at once. */
function reads() {
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const ends: (() => void)[] = [];
  const read = (id: number) => async () => {
    running++;
    most = Math.max(most, running);
    order.push(id);
    await new Promise<void>((end) => ends.push(end));
    running--;
    return id;
  };
  return { read, order, most: () => most, endOne: () => ends.shift()?.(), pending: () => ends.length };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('readBudget', () => {
  it('runs two of a user\'s reads at once, the others in their turn', async () => {
    const budget = readBudget({ running: 2, waiting: 10 });
    const r = reads();
    const answers = [1, 2, 3, 4, 5].map((id) => budget.run(caller('u'), r.read(id)));
    await settle();
    expect(r.order).toEqual([1, 2]);
    while (r.pending()) {
      r.endOne();
      await settle();
    }
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5]);
    expect(r.order).toEqual([1, 2, 3, 4, 5]);
    expect(r.most()).toBe(2);
  });

  it('answers 429 with Retry-After beyond the waiting reads, and not to another user', async () => {
    const budget = readBudget({ running: 1, waiting: 2 });
    const r = reads();
    const kept = [1, 2, 3].map((id) => budget.run(caller('u'), r.read(id)));
    const refused = await budget.run(caller('u'), r.read(4)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).statusCode).toBe(429);
    expect((refused as ApiError).items[0].code).toBe('TOO_MANY_REQUESTS');
    expect((refused as ApiError).retryAfterSeconds).toBe(1);
    // the same user id in another tenant, and another user, have budgets of their own
    const other = budget.run(caller('v'), r.read(5));
    const elsewhere = budget.run(caller('u', 't2'), r.read(6));
    await settle();
    expect(r.order).toEqual([1, 5, 6]);
    while (r.pending()) {
      r.endOne();
      await settle();
    }
    expect(await Promise.all([...kept, other, elsewhere])).toEqual([1, 2, 3, 5, 6]);
  });

  it('a read that fails gives its turn to the next', async () => {
    const budget = readBudget({ running: 1, waiting: 5 });
    const failing = budget.run(caller('u'), async () => {
      throw new Error('boom');
    });
    const next = budget.run(caller('u'), async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });
});
