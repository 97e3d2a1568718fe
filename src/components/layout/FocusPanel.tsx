// A panel that opens where the eye is (the map pages' entity view, form and filters): when the user
// opens it, focus moves into it; Esc closes it, and on closing focus returns to what opened it.
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useRef } from 'react';

interface FocusPanelProps {
  /** The panel's name, read by assistive technology (it is a landmark region). */
  label: string;
  id?: string;
  /** Changes whenever the user opens something in the panel: focus then moves into it. */
  focusKey?: string | number;
  onClose(): void;
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** An open list, menu or picker inside the panel takes Esc for itself. */
const isOpenPopup = (element: Element) => element.getAttribute('aria-expanded') === 'true';

export function FocusPanel({ label, id, focusKey, onClose, className, testId, children }: FocusPanelProps) {
  const panel = useRef<HTMLElement>(null);
  /** What had focus before the panel took it. */
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const node = panel.current;
    if (focusKey === undefined || !node) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !node.contains(active)) opener.current = active;
    node.focus({ preventScroll: true });
    // its top into view in its own column (scrollIntoView would scroll the whole page too)
    const column = node.parentElement;
    if (column) column.scrollTop += Math.min(0, node.getBoundingClientRect().top - column.getBoundingClientRect().top);
  }, [focusKey]);

  // closed (unmounted) while focus was in it: focus goes back to the opener
  useEffect(() => {
    const node = panel.current;
    return () => {
      const active = document.activeElement;
      const focusLost = !active || active === document.body || !active.isConnected || !!node?.contains(active);
      if (focusLost && opener.current?.isConnected) opener.current.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const target = event.target as Element;
    // events from dialogs and popups rendered elsewhere (portals) bubble here too: not ours
    if (!panel.current?.contains(target) || isOpenPopup(target)) return;
    event.preventDefault();
    const back = opener.current;
    onClose();
    if (back?.isConnected) back.focus();
  };

  return (
    <section ref={panel} id={id} className={className} aria-label={label} tabIndex={-1} onKeyDown={onKeyDown} data-testid={testId}>
      {children}
    </section>
  );
}
