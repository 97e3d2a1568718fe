// What the map's colours mean: the chosen groups with their colours and the dimmed rest, or else
// the colouring rules of the colour-by attribute and the colour of other values; and the ring of
// entities under device maintenance while there are some.
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAttributeName } from '../../i18n/attributeNames.ts';
import { DIMMED } from '../../components/map/core/colourPalette.ts';
import type { MapColouring } from '../../components/map/core/entityStyle.ts';
import { MAINTENANCE_COLOUR, useMaintenanceMarks } from '../../components/map/core/maintenanceMarks.ts';
import { ColourSwatch } from './ColourSwatch.tsx';
import type { TenantGroup } from './useMapColouring.ts';
import type { LegendEntry } from './useRuleText.ts';

interface MapLegendProps {
  colouring: MapColouring;
  groups: readonly TenantGroup[];
  attribute?: string;
  /** The colour rules in effect (useRuleLegend): none while groups are chosen. */
  ruleLegend: readonly LegendEntry[];
}

export function MapLegend({ colouring, groups, attribute, ruleLegend }: MapLegendProps) {
  const attributeName = useAttributeName();
  const { t } = useTranslation();
  const { groups: chosen } = colouring;
  const ruled = ruleLegend.length > 0 && attribute !== undefined;
  const underMaintenance = useMaintenanceMarks().size > 0;
  const [title, colours] = chosen.length
    ? [t('dashboardFilters.groups'), [
      ...chosen.map(({ id, colour }) => ({ colour, label: groups.find((group) => group.id === id)?.name ?? `#${id}` })),
      { colour: DIMMED, label: t('dashboardFilters.otherEntities') },
    ]]
    : ruled ? [attributeName(attribute), ruleLegend] : [undefined, []];
  const entries = underMaintenance ? [...colours, { colour: MAINTENANCE_COLOUR, label: t('maintenance.onMap') }] : colours;
  if (!entries.length) return null;
  return (
    <section className="map-legend" aria-label={t('dashboardFilters.legend')} data-testid="map-legend">
      <Typography.Text strong>{title}</Typography.Text>
      <ul>
        {entries.map((entry) => <li key={`${entry.colour}:${entry.label}`}><ColourSwatch colour={entry.colour} /> {entry.label}</li>)}
      </ul>
      {ruled && <Typography.Text type="secondary" className="map-legend-note">{t('dashboardFilters.clustersByRule')}</Typography.Text>}
    </section>
  );
}
