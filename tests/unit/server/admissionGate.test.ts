import { describe, expect, it } from 'vitest';
import { admissionGate } from '../../../server/admissionGate.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('admissionGate', () => {
  it('runs at most its concurrency at once, the rest in arrival order', async () => {
    const gate = admissionGate(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const results = Array.from({ length: 5 }, (_, index) => gate.run(async () => {
      started.push(index);
      await new Promise<void>((resolve) => finish.push(resolve));
      return index * 10;
    }));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(gate.waiting()).toBe(3);
    finish[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]();
    finish[2]();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(gate.waiting()).toBe(0);
    finish[3]();
    finish[4]();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
  });

  it('a failing task passes its error on and frees its turn', async () => {
    const gate = admissionGate(1);
    const failed = gate.run(async () => { throw new Error('no room'); });
    const next = gate.run(async () => 'ran');
    await expect(failed).rejects.toThrow('no room');
    expect(await next).toBe('ran');
    expect(gate.waiting()).toBe(0);
  });
});
