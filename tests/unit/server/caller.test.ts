import { describe, expect, it } from 'vitest';
import { hasPermission, type Caller } from '../../../server/auth/caller.ts';

const caller = (permissions: string[]): Caller => ({ tenantId: 't', userId: 'u', sessionId: 's', modules: [], permissions });

describe('hasPermission', () => {
  it('grants exact permissions and children of a wildcard only', () => {
    expect(hasPermission(caller(['watcher.*']), 'watcher.edit')).toBe(true);
    expect(hasPermission(caller(['performance.board.*']), 'performance.board.create')).toBe(true);
    expect(hasPermission(caller(['performance.board.edit']), 'performance.board.edit')).toBe(true);
    expect(hasPermission(caller(['performance.board.edit']), 'performance.board.delete')).toBe(false);
    expect(hasPermission(caller(['scheduler.*']), 'watcher.edit')).toBe(false);
    expect(hasPermission(caller(['watcher.*']), 'watcherx.edit')).toBe(false);
  });
});
