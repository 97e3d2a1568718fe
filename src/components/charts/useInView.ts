// Whether an element is in the viewport (IntersectionObserver): a chart out of view stops polling.
// Without IntersectionObserver (old browsers, jsdom) everything counts as in view.
import { useEffect, useState, type RefObject } from 'react';

export function useInView(ref: RefObject<Element | null>): boolean {
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return inView;
}
