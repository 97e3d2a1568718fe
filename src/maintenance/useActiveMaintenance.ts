// The tenant's maintenance windows in force, for every signed-in user (the banner, the user menu,
// the map): read live (a window started, changed or ended by anyone reaches every tab over the
// WebSocket), again at the next start or end of an occurrence, and every minute as a fallback.
// The list lives in the query cache, so logging out forgets it (SPEC §4).
import { useList } from '@refinedev/core';
import { useEffect, useMemo, useState } from 'react';
import type { MaintenanceWindow } from '../schemas/maintenanceWindow.ts';

export const MAINTENANCE_POLL_MS = 60_000;
/** After a boundary, the list is read again this much later (clocks differ a little). */
const BOUNDARY_SLACK_MS = 500;

export type ActiveWindow = MaintenanceWindow & { id: number; current_start: string; current_end: string };

export const inForceAt = (window: MaintenanceWindow, now: number): window is ActiveWindow =>
  !!window.current_start && !!window.current_end && Date.parse(window.current_start) <= now && now < Date.parse(window.current_end);

/** The next start or end after `now` among the windows (ms), or undefined. */
export function nextBoundary(windows: readonly MaintenanceWindow[], now: number): number | undefined {
  const times = windows.flatMap((window) => [window.current_start, window.current_end]).filter((time): time is string => !!time).map(Date.parse).filter((time) => time > now);
  return times.length ? Math.min(...times) : undefined;
}

export function useActiveMaintenance(): { active: ActiveWindow[] } {
  const { query } = useList<MaintenanceWindow>({
    resource: 'maintenance_window',
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { refetchInterval: MAINTENANCE_POLL_MS },
    liveMode: 'auto',
  });
  const windows = useMemo(() => query.data?.data ?? [], [query.data]);
  const { refetch } = query;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const boundary = nextBoundary(windows, Date.now());
    if (boundary === undefined) return undefined;
    // setTimeout holds at most ~24.8 days
    const timer = setTimeout(() => {
      setNow(Date.now());
      void refetch();
    }, Math.min(boundary - Date.now() + BOUNDARY_SLACK_MS, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [windows, refetch, now]);
  const active = useMemo(() => windows.filter((window) => inForceAt(window, Math.max(now, Date.now()))), [windows, now]);
  return { active };
}
