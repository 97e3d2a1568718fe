// The width of an element in steps of `step` pixels, kept current. A chart asks /kpi-data for
// about one point per pixel, measured before the first paint so that it asks once with its own
// width rather than first with a guess; the steps of 64 keep a scroll bar that comes and goes with
// the chart's own height from asking again and again. A plot draws to the pixel (step 1).
import { useLayoutEffect, useRef, useState } from 'react';

/** [ref, width in pixels (a step multiple; `initial` while it has none), whether it has been measured yet]. */
export function useElementWidth<E extends HTMLElement = HTMLDivElement>(initial = 600, step = 64) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const stepped = (pixels: number) => (pixels > 0 ? Math.max(step, Math.floor(pixels / step) * step) : initial);
    setWidth(stepped(element.getBoundingClientRect().width));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(stepped(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [initial, step]);
  return [ref, width ?? initial, width !== undefined] as const;
}
