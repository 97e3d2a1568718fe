// A value that follows another once it has stopped changing for a while: a preview beside a form
// (the KPI builder's chart, the lighting profile's day) draws again after a short pause in typing,
// not on every keystroke.
import { useEffect, useState } from 'react';

/** How long a form's preview waits for typing to pause before it draws again. */
export const PREVIEW_PAUSE_MS = 300;

export function usePaused<T>(value: T, ms: number = PREVIEW_PAUSE_MS): T {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return paused;
}
