// The width of an element in whole pixels, kept current (a chart asks /kpi-data for at most one
// point per pixel).
import { useEffect, useRef, useState } from 'react';

export function useElementWidth<E extends HTMLElement = HTMLDivElement>(initial = 600) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(3, Math.round(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
