// Where the dashboard's parts go: a compact bar over the map (region, search, filters), the map
// taking the room that is left, the selected entity's panel on the map's right (wider for its
// detail; over the map on narrow screens) and, when given, the KPI widgets under the map.
import type { ReactNode } from 'react';
import { WidgetsArea } from './WidgetsArea.tsx';

interface DashboardLayoutProps {
  toolbar: ReactNode;
  /** The map, with what floats over it (filters, legend). */
  children: ReactNode;
  /** The selected entity's panel. */
  panel?: ReactNode;
  /** The panel shows the entity's detail: it is wider. */
  panelWide?: boolean;
  /** The KPI widgets; without them no room is kept for them. */
  widgets?: ReactNode;
}

export function DashboardLayout({ toolbar, children, panel, panelWide, widgets }: DashboardLayoutProps) {
  return (
    <div className={`dashboard${panelWide ? ' dashboard-wide-panel' : ''}`} data-testid="page-dashboard">
      <div className="dashboard-toolbar">{toolbar}</div>
      <div className="dashboard-stage">
        <div className="dashboard-map">{children}</div>
        {panel}
      </div>
      {widgets ? <WidgetsArea>{widgets}</WidgetsArea> : null}
    </div>
  );
}
