// The legend's items as buttons over the drawn ones (the SVG itself is hidden from assistive
// technology): pressing one hides its series from the plot or shows it again.
import { useTranslation } from 'react-i18next';
import type { LegendItem } from './plotLayout.ts';

export function LegendButtons({ items, onToggle }: { items: readonly LegendItem[]; onToggle: (series: string) => void }) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <div role="group" aria-label={t('charts.seriesLegend')} data-testid="kpi-legend">
      {items.map((item) => (
        <button
          key={item.series}
          type="button"
          aria-pressed={!item.hidden}
          aria-label={item.series}
          title={t(item.hidden ? 'charts.showSeries' : 'charts.hideSeries', { name: item.series })}
          onClick={() => onToggle(item.series)}
          style={{ position: 'absolute', left: item.x, top: item.y, width: item.width, height: item.height, padding: 0, border: 0, background: 'transparent', cursor: 'pointer' }}
        />
      ))}
    </div>
  );
}
