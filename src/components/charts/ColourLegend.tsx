// The colour mapping's legend beside a chart: each range's label with its colour (colourOf), then
// the out-of-bounds colour.
import { useTranslation } from 'react-i18next';
import type { LegendEntry } from './chartColours.ts';

export function ColourLegend({ entries }: { entries: readonly LegendEntry[] }) {
  const { t } = useTranslation();
  if (!entries.length) return null;
  return (
    <ul aria-label={t('charts.colourLegend')} data-testid="kpi-colour-legend" style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
      {entries.map((entry) => (
        <li key={`${entry.label}${entry.colour}`} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span aria-hidden style={{ width: 12, height: 12, borderRadius: 2, background: entry.colour, display: 'inline-block' }} />
          {entry.label}
        </li>
      ))}
    </ul>
  );
}
