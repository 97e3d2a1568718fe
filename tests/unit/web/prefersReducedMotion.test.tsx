// The "reduce motion" setting is read at once and followed when the user changes it.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePrefersReducedMotion } from '../../../src/components/layout/usePrefersReducedMotion.ts';

function Probe() {
  return <span data-testid="motion">{usePrefersReducedMotion() ? 'reduced' : 'full'}</span>;
}

/** A window.matchMedia whose (prefers-reduced-motion: reduce) answer the test sets. */
function systemSetting(initially: boolean) {
  let matches = initially;
  const listeners = new Set<() => void>();
  const list = {
    get matches() { return matches; },
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.spyOn(window, 'matchMedia').mockImplementation((query) => {
    expect(query).toBe('(prefers-reduced-motion: reduce)');
    return list as unknown as MediaQueryList;
  });
  return {
    listeners,
    change(next: boolean) {
      matches = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('usePrefersReducedMotion', () => {
  it('answers the system setting at the first render', () => {
    systemSetting(true);
    render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('reduced');
  });

  it('follows a change of the setting, and stops listening when unmounted', () => {
    const setting = systemSetting(false);
    const { unmount } = render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('full');
    setting.change(true);
    expect(screen.getByTestId('motion').textContent).toBe('reduced');
    setting.change(false);
    expect(screen.getByTestId('motion').textContent).toBe('full');
    unmount();
    expect(setting.listeners.size).toBe(0);
  });
});
