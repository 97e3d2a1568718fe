// The dashboard state of the signed-in user (dashboardState.ts), read once and written back on
// every change.
import { useCallback, useEffect, useState } from 'react';
import { useShellData } from '../../components/layout/shellData.ts';
import { useTokenClaims } from '../../session/access.ts';
import { dashboardStateKey, readDashboardState, writeDashboardState, type DashboardState } from './dashboardState.ts';

export function useDashboardState(): [DashboardState, (change: Partial<DashboardState>) => void] {
  const { tenant } = useShellData();
  const { sub } = useTokenClaims();
  const key = dashboardStateKey(tenant.id, sub ?? '');
  const [state, setState] = useState(() => readDashboardState(key));
  useEffect(() => writeDashboardState(key, state), [key, state]);
  const change = useCallback((part: Partial<DashboardState>) => setState((current) => ({ ...current, ...part })), []);
  return [state, change];
}
