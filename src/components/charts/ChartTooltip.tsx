// The tooltip of the rows under the pointer: the bucket's time, then each series' name and value
// with its colour. Names are what users typed: React holds them as text; a colour is used only
// when it is a plain #rgb or #rrggbb.
import type { ChartModel } from './chartModel.ts';
import type { ChartRow } from './kpiTypes.ts';

const SAFE_COLOUR = /^#[0-9a-f]{3,8}$/i;
const OFFSET = 12;

export interface TooltipAt {
  rows: readonly ChartRow[];
  /** The pointer within the plot (px). */
  x: number;
  y: number;
}

export function ChartTooltip({ model, at, width }: { model: ChartModel; at: TooltipAt; width: number }) {
  const toLeft = at.x > width / 2;
  const colour = (row: ChartRow) => {
    const value = model.pointColour(row);
    return SAFE_COLOUR.test(value) ? value : undefined;
  };
  return (
    <div
      className="kpi-tooltip"
      data-testid="kpi-tooltip"
      style={{
        position: 'absolute', top: Math.max(0, at.y - OFFSET), pointerEvents: 'none', zIndex: 1, maxWidth: 320,
        ...(toLeft ? { right: width - at.x + OFFSET } : { left: at.x + OFFSET }),
        background: '#ffffff', color: 'rgba(0, 0, 0, 0.88)', boxShadow: '0 3px 6px rgba(0, 0, 0, 0.16)', borderRadius: 4, padding: '6px 8px', fontSize: 12,
      }}
    >
      {at.rows[0] && <div className="kpi-tooltip-title">{model.formatTime(at.rows[0].ts)}</div>}
      <ul className="kpi-tooltip-list" style={{ listStyle: 'none', margin: '4px 0 0', padding: 0 }}>
        {at.rows.map((row, index) => (
          <li key={index} className="kpi-tooltip-item" style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <span className="kpi-tooltip-marker" style={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', flex: 'none', background: colour(row) }} />
            <span className="kpi-tooltip-name" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{row.series}</span>
            <span className="kpi-tooltip-value" style={{ marginLeft: 'auto', paddingLeft: 8 }}>{model.formatValue(row.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
