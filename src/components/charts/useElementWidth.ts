// The width of an element in steps of STEP pixels, kept current (a chart asks /kpi-data for about
// one point per pixel). The steps keep a scroll bar that comes and goes with the chart's own height
// from asking again and again.
import { useEffect, useRef, useState } from 'react';

const STEP = 64;

export function useElementWidth<E extends HTMLElement = HTMLDivElement>(initial = 600) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(STEP, Math.floor(entry.contentRect.width / STEP) * STEP)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
