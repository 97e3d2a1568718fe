// The KPI widgets' place under the dashboard's map: folded away or shown by its header button,
// and as tall as the user drags its edge (or moves it with the arrow keys).
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const MIN_HEIGHT = 120;
const MAX_HEIGHT = 720;
const START_HEIGHT = 260;
/** One arrow key press (px). */
const STEP = 24;

const bounded = (height: number) => Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(height)));

export function WidgetsArea({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const [height, setHeight] = useState(START_HEIGHT);
  const drag = useRef<{ y: number; height: number } | undefined>(undefined);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { y: event.clientY, height };
  };
  // dragging the edge up makes the area taller
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setHeight(bounded(drag.current.height + drag.current.y - event.clientY));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const change = { ArrowUp: STEP, ArrowDown: -STEP, PageUp: 5 * STEP, PageDown: -5 * STEP }[event.key];
    if (change === undefined) return;
    event.preventDefault();
    setHeight((current) => bounded(current + change));
  };

  return (
    <section className="dashboard-widgets" aria-labelledby="dashboard-widgets-title" data-testid="dashboard-widgets">
      {open && (
        <div className="dashboard-widgets-edge" role="separator" aria-orientation="horizontal" tabIndex={0}
          aria-label={t('mapLayout.widgetsResize')} aria-valuemin={MIN_HEIGHT} aria-valuemax={MAX_HEIGHT} aria-valuenow={height}
          onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={() => { drag.current = undefined; }} onKeyDown={onKeyDown} />
      )}
      <div className="dashboard-widgets-header">
        <Button type="text" size="small" id="dashboard-widgets-title" icon={open ? <DownOutlined /> : <UpOutlined />}
          aria-expanded={open} aria-controls="dashboard-widgets-body" onClick={() => setOpen(!open)}>
          {t('mapLayout.widgets')}
        </Button>
      </div>
      <div id="dashboard-widgets-body" className="dashboard-widgets-body" hidden={!open} style={{ height }}>
        {children}
      </div>
    </section>
  );
}
