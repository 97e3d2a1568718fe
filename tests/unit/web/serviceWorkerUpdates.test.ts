// The update flow of the service worker (src/pwa/serviceWorkerUpdates.ts) against a stand-in of
// the browser's service worker API: when the notice shows, what Refresh activates (the newest
// waiting worker, however many updates were ignored), that tabs reload once and a first visit
// does not, that a failed look is retried later without a word, and the chunk reload's guard.
import { describe, expect, it, vi } from 'vitest';
import { RELOAD_GUARD_MS, shouldReloadForChunk } from '../../../src/pwa/chunkReload.ts';
import { CHECK_EVERY_MS, RETRY_AFTER_MS, serviceWorkerUpdates } from '../../../src/pwa/serviceWorkerUpdates.ts';

class FakeWorker extends EventTarget {
  state = 'installing';
  messages: unknown[] = [];
  postMessage(message: unknown) { this.messages.push(message); }
  become(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = vi.fn(async () => {});
  /** A new build's worker installs and waits. */
  install() {
    const worker = new FakeWorker();
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    this.installing = null;
    this.waiting = worker;
    worker.become('installed');
    return worker;
  }
}

function setUp(controlled = true) {
  const registration = new FakeRegistration();
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? {} : null,
    register: vi.fn(async () => registration),
  });
  const timers: { run: () => void; ms: number }[] = [];
  const intervals: { run: () => void; ms: number }[] = [];
  const attention: (() => void)[] = [];
  const reload = vi.fn();
  const updates = serviceWorkerUpdates({
    container: container as unknown as ServiceWorkerContainer,
    buildId: 'build-1',
    reload,
    setTimer: (run, ms) => { timers.push({ run, ms }); },
    every: (run, ms) => { intervals.push({ run, ms }); },
    onAttention: (run) => { attention.push(run); },
  });
  return { updates, registration, container, timers, intervals, attention, reload };
}

describe('serviceWorkerUpdates', () => {
  it('registers /sw.js and looks for a new version hourly and whenever the tab gets attention', async () => {
    const { updates, container, registration, intervals, attention } = setUp();
    await updates.start();
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(intervals.map((interval) => interval.ms)).toEqual([CHECK_EVERY_MS]);
    intervals[0].run();
    attention[0]();
    expect(registration.update).toHaveBeenCalledTimes(2);
  });

  it('looks at once when the server announces another build, not for this page\'s own, and again later until it finds it', async () => {
    const { updates, registration, timers } = setUp();
    await updates.start();
    updates.announced('build-1');
    updates.announced(null);
    expect(registration.update).not.toHaveBeenCalled();
    updates.announced('build-2');
    await vi.waitFor(() => expect(timers).toHaveLength(1)); // an instance not yet upgraded answered the look
    expect(registration.update).toHaveBeenCalledTimes(1);
    registration.update.mockImplementation(async () => { registration.install(); });
    timers[0].run();
    await vi.waitFor(() => expect(updates.updateReady()).toBe(true));
    expect(timers).toHaveLength(1);
  });

  it('shows the notice once a new worker waits; Refresh activates the newest waiting one after an ignored update', async () => {
    const { updates, registration } = setUp();
    await updates.start();
    const changes = vi.fn();
    updates.onChange(changes);
    expect(updates.updateReady()).toBe(false);
    const first = registration.install();
    expect(updates.updateReady()).toBe(true);
    expect(changes).toHaveBeenCalledTimes(1);
    const second = registration.install(); // the first update was ignored
    updates.refresh();
    expect(second.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(first.messages).toEqual([]);
  });

  it('finds a worker already waiting when the page opens', async () => {
    const { updates, registration } = setUp();
    registration.waiting = new FakeWorker();
    await updates.start();
    expect(updates.updateReady()).toBe(true);
  });

  it('reloads once when the new worker takes over; a first visit taken over by the first worker does not reload', async () => {
    const { updates, container, reload } = setUp();
    await updates.start();
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);

    const firstVisit = setUp(false);
    await firstVisit.updates.start();
    firstVisit.container.dispatchEvent(new Event('controllerchange'));
    expect(firstVisit.reload).not.toHaveBeenCalled();
    firstVisit.container.dispatchEvent(new Event('controllerchange')); // a later update taking over
    expect(firstVisit.reload).toHaveBeenCalledTimes(1);
  });

  it('tries a failed look again a minute later, once, without a word', async () => {
    const { updates, registration, timers } = setUp();
    await updates.start();
    registration.update.mockRejectedValue(new TypeError('Failed to fetch'));
    await updates.check();
    await updates.check();
    expect(timers.map((timer) => timer.ms)).toEqual([RETRY_AFTER_MS]);
    registration.update.mockResolvedValue(undefined);
    timers[0].run();
    expect(registration.update).toHaveBeenCalledTimes(3);
  });
});

describe('shouldReloadForChunk', () => {
  const entry = () => {
    let state: unknown = { kept: 1 };
    return { get state() { return state; }, replaceState(next: unknown) { state = next; } };
  };

  it('reloads once, and not again within the guard, keeping the history entry\'s state', () => {
    const history = entry();
    expect(shouldReloadForChunk(history, 1_000_000)).toBe(true);
    expect(history.state).toMatchObject({ kept: 1 });
    expect(shouldReloadForChunk(history, 1_000_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(shouldReloadForChunk(history, 1_000_000 + RELOAD_GUARD_MS)).toBe(true);
  });
});
