// The sidebar's open/closed state: remembered in localStorage (`sidebar_status`, 'open' or
// 'closed') and closed automatically when the window is narrower than 992 px (SPEC §4).
import { useCallback, useEffect, useState } from 'react';
import { DEVICE_KEYS } from '../../session/storedKeys.ts';

export const SIDEBAR_STORAGE_KEY = DEVICE_KEYS.sidebarStatus;
export const MOBILE_BREAKPOINT_PX = 992;

const narrowQuery = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function isNarrowWindow(): boolean {
  return typeof window.matchMedia === 'function' ? window.matchMedia(narrowQuery).matches : window.innerWidth < MOBILE_BREAKPOINT_PX;
}

function storedCollapsed(): boolean {
  return window.localStorage.getItem(SIDEBAR_STORAGE_KEY) === 'closed';
}

export function useSidebarState(): { collapsed: boolean; toggle: () => void; closeOnNarrowWindow: () => void } {
  const [collapsed, setCollapsed] = useState(() => isNarrowWindow() || storedCollapsed());

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(narrowQuery);
    const onChange = () => {
      if (query.matches) setCollapsed(true);
      else setCollapsed(storedCollapsed());
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const toggle = useCallback(() => {
    setCollapsed((previous) => {
      const next = !previous;
      window.localStorage.setItem(SIDEBAR_STORAGE_KEY, next ? 'closed' : 'open');
      return next;
    });
  }, []);

  /** After choosing a page on a narrow window the menu gets out of the way. */
  const closeOnNarrowWindow = useCallback(() => {
    if (isNarrowWindow()) setCollapsed(true);
  }, []);

  return { collapsed, toggle, closeOnNarrowWindow };
}
