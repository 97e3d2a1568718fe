// Where a component sits on a board: 24 columns on every screen (SPEC §9), one place per width
// class of the board (lg, md, sm), falling back to the component's own {x, y, w, h}. Saving one
// width class's place leaves the others as they were.
import type { Component } from '../../schemas/component.ts';

export const GRID_COLUMNS = 24;
export const MAX_ROWS = 10_000;
export const MAX_HEIGHT = 200;
/** Pixels of one grid row. */
export const ROW_HEIGHT = 30;

/** The board's width classes, by the board's own width in pixels (below 992 px: SPEC §9's mobile). */
export const BREAKPOINTS = { lg: 1200, md: 992, sm: 0 } as const;
export type Breakpoint = keyof typeof BREAKPOINTS;

export interface Cell { x: number; y: number; w: number; h: number }
export type ComponentLayout = NonNullable<Component['layout']>;

const DEFAULT_CELL: Cell = { x: 0, y: 0, w: 12, h: 8 };

export const breakpointOf = (width: number): Breakpoint => (width >= BREAKPOINTS.lg ? 'lg' : width >= BREAKPOINTS.md ? 'md' : 'sm');

const whole = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback);
const within = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** A place inside the grid: 1–24 columns wide, starting where it fits, 1–200 rows high. */
export function boundedCell(cell: Partial<Cell>): Cell {
  const w = within(whole(cell.w, DEFAULT_CELL.w), 1, GRID_COLUMNS);
  return {
    x: within(whole(cell.x, 0), 0, GRID_COLUMNS - w),
    y: within(whole(cell.y, 0), 0, MAX_ROWS),
    w,
    h: within(whole(cell.h, DEFAULT_CELL.h), 1, MAX_HEIGHT),
  };
}

/** The component's place on screens of this width class. */
export function cellOf(layout: ComponentLayout | undefined, breakpoint: Breakpoint): Cell {
  return boundedCell(layout?.breakpoints?.[breakpoint] ?? layout ?? DEFAULT_CELL);
}

/** The layout with this width class's place set, the others kept. */
export function withCell(layout: ComponentLayout | undefined, breakpoint: Breakpoint, cell: Cell): ComponentLayout {
  const base: ComponentLayout = layout ?? DEFAULT_CELL;
  return { ...base, breakpoints: { ...base.breakpoints, [breakpoint]: boundedCell(cell) } };
}

export const sameCell = (a: Cell, b: Cell) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
