// Arranging a board by keyboard (src/pages/boards/gridKeyboard.ts) and a component's place per
// width class (boardLayout.ts): the keys, the moves and sizes inside the 24 columns, Esc.
import { describe, expect, it } from 'vitest';
import { cellOf, withCell } from '../../../src/pages/boards/boardLayout.ts';
import { keyboardActionOf, keyboardReducer, type KeyboardAction, type KeyboardState } from '../../../src/pages/boards/gridKeyboard.ts';

const start: KeyboardState = {
  layout: [
    { i: 'a', x: 0, y: 0, w: 12, h: 4 },
    { i: 'b', x: 12, y: 0, w: 12, h: 4 },
  ],
};
const run = (state: KeyboardState, ...actions: KeyboardAction[]) => actions.reduce(keyboardReducer, state);
const itemOf = (state: KeyboardState, id: string) => state.layout.find((item) => item.i === id)!;

describe('keyboardActionOf', () => {
  it('picks up and puts down with Enter or Space, cancels with Escape only while held', () => {
    expect(keyboardActionOf('Enter', false, 'a', false)).toEqual({ type: 'pick', id: 'a' });
    expect(keyboardActionOf(' ', false, 'a', true)).toEqual({ type: 'drop' });
    expect(keyboardActionOf('Escape', false, 'a', true)).toEqual({ type: 'cancel' });
    expect(keyboardActionOf('Escape', false, 'a', false)).toBeUndefined();
  });

  it('moves with arrows and resizes with Shift and arrows, only while held', () => {
    expect(keyboardActionOf('ArrowRight', false, 'a', true)).toEqual({ type: 'move', dx: 1, dy: 0 });
    expect(keyboardActionOf('ArrowUp', false, 'a', true)).toEqual({ type: 'move', dx: 0, dy: -1 });
    expect(keyboardActionOf('ArrowDown', true, 'a', true)).toEqual({ type: 'resize', dw: 0, dh: 1 });
    expect(keyboardActionOf('ArrowLeft', true, 'a', true)).toEqual({ type: 'resize', dw: -1, dh: 0 });
    expect(keyboardActionOf('ArrowRight', false, 'a', false)).toBeUndefined();
    expect(keyboardActionOf('Tab', false, 'a', true)).toBeUndefined();
  });
});

describe('keyboardReducer', () => {
  it('moves the held component a row down, and the others make room', () => {
    const state = run(start, { type: 'pick', id: 'a' }, { type: 'move', dx: 0, dy: 1 }, { type: 'move', dx: 0, dy: 1 });
    expect(itemOf(state, 'a')).toMatchObject({ x: 0, y: 2 });
    expect(itemOf(state, 'b')).toEqual(start.layout[1]);
    const pushed = run(start, { type: 'pick', id: 'a' }, { type: 'move', dx: 1, dy: 0 });
    expect(itemOf(pushed, 'a')).toMatchObject({ x: 1, y: 0 });
    // b no longer overlaps a
    const [a, b] = [itemOf(pushed, 'a'), itemOf(pushed, 'b')];
    expect(b.y >= a.y + a.h || b.x >= a.x + a.w).toBe(true);
  });

  it('keeps the component inside the 24 columns and the top row', () => {
    const left = run(start, { type: 'pick', id: 'a' }, { type: 'move', dx: -1, dy: 0 }, { type: 'move', dx: 0, dy: -1 });
    expect(itemOf(left, 'a')).toMatchObject({ x: 0, y: 0 });
    const right = run(start, { type: 'pick', id: 'b' }, { type: 'move', dx: 1, dy: 0 });
    expect(itemOf(right, 'b')).toMatchObject({ x: 12 });
  });

  it('resizes within 1–24 columns (stopping at the right edge) and 1–200 rows', () => {
    const narrow = run({ layout: [{ i: 'a', x: 0, y: 0, w: 1, h: 1 }] }, { type: 'pick', id: 'a' }, { type: 'resize', dw: -1, dh: -1 });
    expect(itemOf(narrow, 'a')).toMatchObject({ w: 1, h: 1 });
    const wide = run(start, { type: 'pick', id: 'b' }, { type: 'resize', dw: 1, dh: 1 });
    expect(itemOf(wide, 'b')).toMatchObject({ x: 12, w: 12, h: 5 });
    const tall = run({ layout: [{ i: 'a', x: 0, y: 0, w: 4, h: 200 }] }, { type: 'pick', id: 'a' }, { type: 'resize', dw: 1, dh: 1 });
    expect(itemOf(tall, 'a')).toMatchObject({ w: 5, h: 200 });
  });

  it('Escape puts everything back where it was when picked up', () => {
    const moved = run(start, { type: 'pick', id: 'a' }, { type: 'move', dx: 3, dy: 2 }, { type: 'resize', dw: 2, dh: 0 });
    expect(itemOf(moved, 'a')).not.toEqual(start.layout[0]);
    const back = keyboardReducer(moved, { type: 'cancel' });
    expect(back).toEqual({ layout: start.layout });
  });

  it('does nothing to what is not held, and drop keeps the new place', () => {
    expect(run(start, { type: 'move', dx: 1, dy: 0 })).toBe(start);
    const dropped = run(start, { type: 'pick', id: 'a' }, { type: 'move', dx: 0, dy: 3 }, { type: 'drop' });
    expect(dropped.held).toBeUndefined();
    expect(itemOf(dropped, 'a')).toMatchObject({ y: 3 });
  });

  it('a layout from the server does not replace one being moved', () => {
    const held = run(start, { type: 'pick', id: 'a' });
    expect(keyboardReducer(held, { type: 'load', layout: [] })).toBe(held);
    expect(keyboardReducer(start, { type: 'load', layout: [] })).toEqual({ layout: [] });
  });
});

describe('boardLayout', () => {
  it('reads the place of a width class, else the component\'s own', () => {
    const layout = { x: 2, y: 3, w: 6, h: 5, breakpoints: { sm: { x: 0, y: 0, w: 24, h: 5 } } };
    expect(cellOf(layout, 'lg')).toEqual({ x: 2, y: 3, w: 6, h: 5 });
    expect(cellOf(layout, 'sm')).toEqual({ x: 0, y: 0, w: 24, h: 5 });
    expect(cellOf(undefined, 'md')).toEqual({ x: 0, y: 0, w: 12, h: 8 });
  });

  it('saves one width class and keeps the others', () => {
    const layout = { x: 2, y: 3, w: 6, h: 5, breakpoints: { sm: { x: 0, y: 0, w: 24, h: 5 } } };
    const next = withCell(layout, 'lg', { x: 30, y: 1, w: 40, h: 0 });
    expect(next).toEqual({ x: 2, y: 3, w: 6, h: 5, breakpoints: { sm: { x: 0, y: 0, w: 24, h: 5 }, lg: { x: 0, y: 1, w: 24, h: 1 } } });
  });
});
