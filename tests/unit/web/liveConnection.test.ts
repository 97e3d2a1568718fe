// The live connection tells the page to read afresh after a reconnection (changes made while it
// was down were never sent), not on its first connection. graphql-ws' client is stubbed: what is
// under test is what the connection does with its events.
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Handlers = { connected?: () => void; closed?: () => void };
const made: Handlers[] = [];
vi.mock('graphql-ws', () => ({
  createClient: (options: { on: Handlers }) => {
    made.push(options.on);
    return { subscribe: () => () => undefined, dispose: async () => undefined };
  },
}));

// Modules imported by an earlier file of this worker hold the real client: this file gets its own.
vi.resetModules();
const { liveConnection } = await import('../../../src/providers/liveConnection.ts');
const { storeTokens } = await import('../../../src/session/tokenStorage.ts');

describe('liveConnection', () => {
  beforeEach(() => {
    liveConnection.close();
    made.length = 0;
    storeTokens('a', 'r');
  });

  it('calls its reconnection listeners on each reconnection, never on the first connection', () => {
    const reconnected = vi.fn();
    const stop = liveConnection.onReconnected(reconnected);
    liveConnection.open();
    made[0].connected!();
    expect(reconnected).not.toHaveBeenCalled();
    made[0].closed!();
    made[0].connected!();
    made[0].connected!();
    expect(reconnected).toHaveBeenCalledTimes(2);
    stop();
    made[0].connected!();
    expect(reconnected).toHaveBeenCalledTimes(2);
  });

  it('starts counting again after the connection was closed (signed out and in)', () => {
    const reconnected = vi.fn();
    liveConnection.onReconnected(reconnected);
    liveConnection.open();
    made[0].connected!();
    liveConnection.close();
    liveConnection.open();
    made[1].connected!();
    expect(reconnected).not.toHaveBeenCalled();
  });
});
