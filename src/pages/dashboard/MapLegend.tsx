// What the map's colours mean (useColourLegend: the chosen groups, or the colouring rules), how
// clusters take them, and the ring of entities under device maintenance while there are some.
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAINTENANCE_COLOUR, useMaintenanceMarks } from '../../components/map/core/maintenanceMarks.ts';
import { ColourSwatch } from './ColourSwatch.tsx';
import type { ColourLegend } from './useColourLegend.ts';

export function MapLegend({ legend }: { legend: ColourLegend }) {
  const { t } = useTranslation();
  const { title, entries: colours } = legend;
  const underMaintenance = useMaintenanceMarks().size > 0;
  const entries = underMaintenance ? [...colours, { colour: MAINTENANCE_COLOUR, label: t('maintenance.onMap') }] : colours;
  if (!entries.length) return null;
  return (
    <section className="map-legend" aria-label={t('dashboardFilters.legend')} data-testid="map-legend">
      <Typography.Text strong>{title}</Typography.Text>
      <ul>
        {entries.map((entry) => <li key={`${entry.colour}:${entry.label}`}><ColourSwatch colour={entry.colour} /> {entry.label}</li>)}
      </ul>
      {colours.length > 0 && <Typography.Text type="secondary" className="map-legend-note">{t('dashboardFilters.clustersByColour')}</Typography.Text>}
    </section>
  );
}
