// Copies a text to the clipboard and says so for 5 s (SPEC §8: 'Copied!' (5 s)); copying again
// restarts the 5 s, and a failed copy says nothing.
import { useCallback, useEffect, useRef, useState } from 'react';

export const COPIED_MS = 5_000;

export function useCopied(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      setCopied(false);
      return;
    }
    setCopied(true);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }, []);
  return { copied, copy };
}
