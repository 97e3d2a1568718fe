// The copy button: it copies its text, reads 'Copied!' for exactly 5 s (SPEC §8), restarts the
// 5 s when copied again, and says nothing when the clipboard refuses.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../../../src/components/CopyButton.tsx';
import { COPIED_MS } from '../../../src/components/useCopied.ts';
import { setUpI18n } from '../../../src/i18n/i18n.ts';

const writeText = vi.fn<(text: string) => Promise<void>>();

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
beforeEach(() => {
  vi.useFakeTimers();
  writeText.mockReset().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const button = () => screen.getByTestId('copy');
const click = async () => {
  await act(async () => {
    fireEvent.click(button());
    await Promise.resolve();
  });
};
const wait = (ms: number) => act(async () => {
  vi.advanceTimersByTime(ms);
});

describe('the copy button', () => {
  it('copies its text and reads Copied! for 5 s, then Copy again', async () => {
    render(<CopyButton text="tsa_secret" label="Copy the token" data-testid="copy" />);
    expect(button().textContent).toBe('Copy');
    await click();
    expect(writeText).toHaveBeenCalledWith('tsa_secret');
    expect(button().textContent).toBe('Copied!');
    await wait(COPIED_MS - 1);
    expect(button().textContent).toBe('Copied!');
    await wait(1);
    expect(button().textContent).toBe('Copy');
    expect(COPIED_MS).toBe(5_000);
  });

  it('restarts the 5 s when copied again', async () => {
    render(<CopyButton text="x" label="Copy" data-testid="copy" />);
    await click();
    await wait(4_000);
    await click();
    await wait(4_000);
    expect(button().textContent).toBe('Copied!');
    await wait(1_000);
    expect(button().textContent).toBe('Copy');
  });

  it('does not say Copied! when the clipboard refuses', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    render(<CopyButton text="x" label="Copy" data-testid="copy" />);
    await click();
    await act(async () => {
      await Promise.resolve();
    });
    expect(button().textContent).toBe('Copy');
  });
});
