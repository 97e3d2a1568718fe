// The width of an element in steps of STEP pixels, kept current (a chart asks /kpi-data for about
// one point per pixel). It is measured before the first paint, so a chart asks once with its own
// width rather than first with a guess; the steps keep a scroll bar that comes and goes with the
// chart's own height from asking again and again.
import { useLayoutEffect, useRef, useState } from 'react';

const STEP = 64;
const stepped = (pixels: number) => Math.max(STEP, Math.floor(pixels / STEP) * STEP);

/** [ref, width in pixels (a step multiple), whether it has been measured yet]. */
export function useElementWidth<E extends HTMLElement = HTMLDivElement>(initial = 600) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(stepped(element.getBoundingClientRect().width));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(stepped(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width ?? initial, width !== undefined] as const;
}
