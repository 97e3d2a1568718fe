// While a component is dragged near the top or bottom edge of the window, the page scrolls that
// way (faster the nearer the edge), so a component can be carried past what is on screen.
import { useCallback, useEffect, useRef } from 'react';

const EDGE_PX = 60;
const MAX_STEP_PX = 18;

/** The element that scrolls the board: the nearest scrolling ancestor, else the document. */
function scrollerOf(element: Element | null): Element {
  for (let node = element?.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  return document.scrollingElement ?? document.documentElement;
}

/** start() when a drag begins (with the grid's element), stop() when it ends. */
export function useEdgeAutoScroll() {
  const pointerY = useRef<number | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);
  const cleanup = useRef<() => void>(() => undefined);

  const stop = useCallback(() => {
    cleanup.current();
    cleanup.current = () => undefined;
  }, []);

  const start = useCallback((grid: Element | null) => {
    stop();
    const scroller = scrollerOf(grid);
    const track = (event: PointerEvent | TouchEvent | MouseEvent) => {
      pointerY.current = 'touches' in event ? event.touches[0]?.clientY : event.clientY;
    };
    const tick = () => {
      const y = pointerY.current;
      if (y !== undefined) {
        const bottom = window.innerHeight;
        const step = y < EDGE_PX ? -Math.ceil(((EDGE_PX - y) / EDGE_PX) * MAX_STEP_PX)
          : y > bottom - EDGE_PX ? Math.ceil(((y - (bottom - EDGE_PX)) / EDGE_PX) * MAX_STEP_PX) : 0;
        if (step) scroller.scrollBy(0, step);
      }
      frame.current = requestAnimationFrame(tick);
    };
    window.addEventListener('pointermove', track, { passive: true });
    window.addEventListener('mousemove', track, { passive: true });
    window.addEventListener('touchmove', track, { passive: true });
    frame.current = requestAnimationFrame(tick);
    cleanup.current = () => {
      window.removeEventListener('pointermove', track);
      window.removeEventListener('mousemove', track);
      window.removeEventListener('touchmove', track);
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
      pointerY.current = undefined;
    };
  }, [stop]);

  useEffect(() => stop, [stop]);
  return { start, stop };
}
