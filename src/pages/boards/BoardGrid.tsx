// A board's components on a grid of 24 columns (react-grid-layout over its controlled `layout`).
// Viewers see the grid still. Editors arrange it: by mouse or touch with the handle and the corner,
// or by keyboard (gridKeyboard.ts) — every change is said in a live region and, once put down,
// saved for the board's current width class only (boardLayout.ts).
import { DeleteOutlined, DragOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Space } from 'antd';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import ReactGridLayout, { noCompactor, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { breakpointOf, cellOf, GRID_COLUMNS, ROW_HEIGHT, sameCell, withCell, type Breakpoint, type ComponentLayout } from './boardLayout.ts';
import { keyboardActionOf, keyboardReducer, type GridItem, type KeyboardAction, type KeyboardState } from './gridKeyboard.ts';
import { COMPONENT_RENDERERS } from './renderers/componentRenderers.ts';
import type { BoardComponent } from './renderers/rendererProps.ts';
import { useEdgeAutoScroll } from './useEdgeAutoScroll.ts';
import './boards.css';

export interface LayoutChange { component: BoardComponent; layout: ComponentLayout }

export interface BoardGridProps {
  components: readonly BoardComponent[];
  editing?: boolean;
  /** The width class to arrange for, whatever the grid's width (the print view prints the wide one). */
  breakpoint?: Breakpoint;
  print?: boolean;
  onReadyOf(id: number): () => void;
  onLayoutSave?(changes: LayoutChange[]): void;
  onEdit?(component: BoardComponent): void;
  onRemove?(component: BoardComponent): void;
}

const itemsOf = (layout: Layout): GridItem[] => layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));

export function BoardGrid({ components, editing = false, breakpoint: fixedBreakpoint, print, onReadyOf, onLayoutSave, onEdit, onRemove }: BoardGridProps) {
  const { t } = useTranslation();
  const { width, containerRef, mounted } = useContainerWidth();
  const breakpoint = fixedBreakpoint ?? breakpointOf(width);
  const saved = useMemo(() => components.map((component) => ({ i: String(component.id), ...cellOf(component.layout, breakpoint) })), [components, breakpoint]);
  const savedKey = JSON.stringify(saved);
  const [state, setState] = useState<KeyboardState>({ layout: saved });
  const [announcement, setAnnouncement] = useState('');
  const edgeScroll = useEdgeAutoScroll();
  const gridRef = useRef<HTMLDivElement>(null);
  const byId = useMemo(() => new Map(components.map((component) => [String(component.id), component])), [components]);

  // what the server holds, once it changes (another save, another user), unless something is held
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setState((current) => keyboardReducer(current, { type: 'load', layout: saved })), [savedKey]);
  useEffect(() => { if (!editing) setState({ layout: saved }); }, [editing]); // eslint-disable-line react-hooks/exhaustive-deps

  const place = (item: GridItem | undefined) => ({ column: (item?.x ?? 0) + 1, row: (item?.y ?? 0) + 1, width: item?.w ?? 0, height: item?.h ?? 0 });
  const nameOf = (id: string) => byId.get(id)?.name ?? '';

  /** Saves what differs from the server's layout (components pushed aside too). */
  const save = (layout: readonly GridItem[]) => {
    const changes = layout.flatMap((item) => {
      const component = byId.get(item.i);
      const before = saved.find((entry) => entry.i === item.i);
      return component && before && !sameCell(before, item) ? [{ component, layout: withCell(component.layout, breakpoint, item) }] : [];
    });
    if (changes.length) onLayoutSave?.(changes);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, id: string) => {
    if (!editing || event.target !== event.currentTarget) return;
    const action: KeyboardAction | undefined = keyboardActionOf(event.key, event.shiftKey, id, state.held?.id === id);
    if (!action) return;
    event.preventDefault();
    const next = keyboardReducer(state.held && state.held.id !== id ? { layout: state.layout } : state, action);
    setState(next);
    const item = next.layout.find((entry) => entry.i === id);
    const where = { name: nameOf(id), ...place(item) };
    if (action.type === 'pick') setAnnouncement(t('boards.keyboard.picked', where));
    else if (action.type === 'move') setAnnouncement(t('boards.keyboard.moved', where));
    else if (action.type === 'resize') setAnnouncement(t('boards.keyboard.resized', where));
    else if (action.type === 'cancel') setAnnouncement(t('boards.keyboard.cancelled', where));
    else if (action.type === 'drop') {
      setAnnouncement(t('boards.keyboard.dropped', where));
      save(next.layout);
    }
  };

  const onPointerDone = (kind: 'moved' | 'resized') => (layout: Layout, _old: unknown, item: { i: string } | null) => {
    edgeScroll.stop();
    const items = itemsOf(layout);
    setState({ layout: items });
    if (item) setAnnouncement(t(`boards.keyboard.${kind}`, { name: nameOf(item.i), ...place(items.find((entry) => entry.i === item.i)) }));
    save(items);
  };

  const instructionsId = 'board-keyboard-instructions';
  return (
    <div ref={containerRef} className={`board-grid${editing ? ' board-grid-editing' : ''}`} data-testid="board-grid" data-breakpoint={breakpoint}>
      {editing && <p id={instructionsId} className="board-grid-instructions">{t('boards.keyboard.instructions')}</p>}
      <div aria-live="assertive" aria-atomic="true" className="visually-hidden" data-testid="board-announcement">{announcement}</div>
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={state.layout}
          innerRef={gridRef}
          compactor={noCompactor}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: [12, 12] }}
          dragConfig={{ enabled: editing, handle: '.board-item-handle', bounded: false }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          onDragStart={() => edgeScroll.start(gridRef.current)}
          onDragStop={onPointerDone('moved')}
          onResizeStop={onPointerDone('resized')}
        >
          {components.map((component) => {
            const id = String(component.id);
            const Renderer = COMPONENT_RENDERERS[component.type];
            const held = state.held?.id === id;
            return (
              <div key={id} className={`board-item${held ? ' board-item-held' : ''}`} data-testid="board-item" data-component-id={id} data-type={component.type}
                {...(editing ? {
                  tabIndex: 0, role: 'group', 'aria-roledescription': t('boards.keyboard.roleDescription'), 'aria-label': component.name,
                  'aria-describedby': instructionsId, onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => onKeyDown(event, id),
                } : {})}>
                <Card size="small" className="board-card" title={component.name}
                  extra={editing ? (
                    <Space size={2}>
                      <span className="board-item-handle" aria-hidden="true" title={t('boards.dragHandle')}><DragOutlined /></span>
                      <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('boards.editComponent', { name: component.name })} onClick={() => onEdit?.(component)} data-testid="component-edit" />
                      <Popconfirm title={t('boards.removeConfirm', { name: component.name })} okText={t('buttons.delete')} cancelText={t('form.cancel')} onConfirm={() => onRemove?.(component)}>
                        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('boards.removeComponent', { name: component.name })} data-testid="component-remove" />
                      </Popconfirm>
                    </Space>
                  ) : undefined}>
                  {Renderer ? <Renderer component={component} onReady={onReadyOf(component.id)} print={print} /> : null}
                </Card>
              </div>
            );
          })}
        </ReactGridLayout>
      )}
    </div>
  );
}
