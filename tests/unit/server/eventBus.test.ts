// The post-commit event bus: every subscriber hears each event in order; one that throws or
// rejects is reported once under its name and counted, and the emitter and the others go on.
import { describe, expect, it } from 'vitest';
import { eventBus, type SubscriberFailure } from '../../../server/events/eventBus.ts';

type Events = { 'thing.changed': { id: number }; 'other.happened': string };

describe('the event bus', () => {
  it('tells every subscriber of an event, in the order they subscribed, and no one else', () => {
    const bus = eventBus<Events>(() => {});
    const heard: string[] = [];
    bus.on('thing.changed', 'first', ({ id }) => { heard.push(`first ${id}`); });
    bus.on('thing.changed', 'second', ({ id }) => { heard.push(`second ${id}`); });
    bus.on('other.happened', 'third', (text) => { heard.push(`third ${text}`); });
    bus.emit('thing.changed', { id: 7 });
    expect(heard).toEqual(['first 7', 'second 7']);
  });

  it('reports a subscriber that throws or rejects once, by name, counts it, and goes on', async () => {
    const failures: SubscriberFailure[] = [];
    const bus = eventBus<Events>((failure) => failures.push(failure));
    const heard: number[] = [];
    bus.on('thing.changed', 'throws', () => { throw new Error('broken'); });
    bus.on('thing.changed', 'rejects', async () => { throw new Error('later'); });
    bus.on('thing.changed', 'listens', ({ id }) => { heard.push(id); });
    expect(() => bus.emit('thing.changed', { id: 1 })).not.toThrow();
    bus.emit('thing.changed', { id: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([1, 2]);
    expect(failures.map(({ event, subscriber, error }) => [event, subscriber, (error as Error).message])).toEqual([
      ['thing.changed', 'throws', 'broken'], ['thing.changed', 'throws', 'broken'], ['thing.changed', 'rejects', 'later'], ['thing.changed', 'rejects', 'later'],
    ]);
    expect(bus.failures()).toEqual({ 'thing.changed → throws': 2, 'thing.changed → rejects': 2 });
  });

  it('stops telling a subscriber that stopped hearing; a failing report fails nothing', () => {
    const bus = eventBus<Events>(() => { throw new Error('the log is broken too'); });
    const heard: string[] = [];
    const stop = bus.on('other.happened', 'once', (text) => { heard.push(text); });
    bus.on('other.happened', 'fails', () => { throw new Error('x'); });
    bus.emit('other.happened', 'a');
    stop();
    expect(() => bus.emit('other.happened', 'b')).not.toThrow();
    expect(heard).toEqual(['a']);
  });
});
