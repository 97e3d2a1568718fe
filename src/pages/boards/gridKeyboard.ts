// Moving and resizing a board's components by keyboard (react-grid-layout has no keyboard of its
// own): Enter or Space picks the focused component up, arrows move it a column or a row, Shift and
// arrows make it narrower, wider, lower or taller, Enter or Space puts it down (saved), Esc puts it
// back where it was. Components in the way move down to make room.
import { collides } from 'react-grid-layout/core';
import { boundedCell, GRID_COLUMNS, type Cell } from './boardLayout.ts';

export interface GridItem extends Cell { i: string }

export interface KeyboardState {
  layout: GridItem[];
  /** The component picked up, and the whole layout as it was then (Esc brings it back). */
  held?: { id: string; before: GridItem[] };
}

export type KeyboardAction =
  | { type: 'pick'; id: string }
  | { type: 'drop' }
  | { type: 'cancel' }
  | { type: 'move'; dx: number; dy: number }
  | { type: 'resize'; dw: number; dh: number }
  | { type: 'load'; layout: GridItem[] };

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The action a key stands for on a component; undefined: the key is not the grid's. */
export function keyboardActionOf(key: string, shiftKey: boolean, id: string, held: boolean): KeyboardAction | undefined {
  if (key === 'Enter' || key === ' ') return held ? { type: 'drop' } : { type: 'pick', id };
  if (key === 'Escape') return held ? { type: 'cancel' } : undefined;
  const arrow = ARROWS[key];
  if (!arrow || !held) return undefined;
  return shiftKey ? { type: 'resize', dw: arrow[0], dh: arrow[1] } : { type: 'move', dx: arrow[0], dy: arrow[1] };
}

/** The layout with the held item at `cell`; the items it now covers, and those they then cover, move down out of its way (nothing moves up or sideways). */
function placed(layout: readonly GridItem[], id: string, cell: Cell): GridItem[] {
  const settled: GridItem[] = [{ i: id, ...cell }];
  const others = layout.filter((item) => item.i !== id).map((item) => ({ ...item })).sort((a, b) => a.y - b.y || a.x - b.x);
  for (const item of others) {
    for (let blocker = settled.find((other) => collides(other, item)); blocker; blocker = settled.find((other) => collides(other, item))) item.y = blocker.y + blocker.h;
    settled.push(item);
  }
  return layout.map((item) => settled.find((entry) => entry.i === item.i)!);
}

export function keyboardReducer(state: KeyboardState, action: KeyboardAction): KeyboardState {
  switch (action.type) {
    case 'load':
      return state.held ? state : { layout: action.layout };
    case 'pick':
      return state.layout.some((item) => item.i === action.id) ? { layout: state.layout, held: { id: action.id, before: state.layout } } : state;
    case 'drop':
      return { layout: state.layout };
    case 'cancel':
      return state.held ? { layout: state.held.before } : state;
    case 'move':
    case 'resize': {
      if (!state.held) return state;
      const item = state.layout.find((entry) => entry.i === state.held!.id);
      if (!item) return state;
      const cell = action.type === 'move'
        ? boundedCell({ ...item, x: item.x + action.dx, y: item.y + action.dy })
        : boundedCell({ ...item, w: Math.min(item.w + action.dw, GRID_COLUMNS - item.x), h: item.h + action.dh }); // wider stops at the right edge
      if (cell.x === item.x && cell.y === item.y && cell.w === item.w && cell.h === item.h) return state;
      return { ...state, layout: placed(state.layout, item.i, cell) };
    }
    default:
      return state;
  }
}
