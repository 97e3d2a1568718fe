// The charts of a page take turns to draw (src/components/charts/drawTurns.ts): one at a time,
// those in view first in document order, then the rest; a chart that never says it drew, or
// leaves, gives its turn back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isInView, requestDrawTurn, TURN_LIMIT_MS } from '../../../src/components/charts/drawTurns.ts';

/** A chart's element at `top` px of a 1,000 px high window. */
function chartAt(top: number): HTMLElement {
  const element = document.createElement('div');
  element.getBoundingClientRect = () => ({ top, bottom: top + 100, left: 0, right: 400, width: 400, height: 100, x: 0, y: top, toJSON: () => ({}) });
  document.body.append(element);
  return element;
}

let granted: string[];
const ask = (name: string, element: Element) => requestDrawTurn(element, () => granted.push(name));

beforeEach(() => {
  granted = [];
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  Object.assign(window, { innerHeight: 1_000, innerWidth: 1_000 });
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('draw turns', () => {
  it('tells what shows: inside the window and the scrolled box around it', () => {
    expect(isInView(chartAt(500))).toBe(true);
    expect(isInView(chartAt(1_200))).toBe(false);
    const box = document.createElement('div');
    box.style.overflowY = 'auto';
    box.getBoundingClientRect = () => ({ top: 0, bottom: 300, left: 0, right: 1_000, width: 1_000, height: 300, x: 0, y: 0, toJSON: () => ({}) });
    document.body.append(box);
    const below = chartAt(400);
    box.append(below);
    expect(isInView(below)).toBe(false);
  });

  it('gives one turn at a time, in view first in document order, then those out of view', () => {
    const turns = [ask('first, out of view', chartAt(1_500)), ask('second, in view', chartAt(600)), ask('third, in view', chartAt(100))];
    expect(granted).toEqual([]); // not in the task that asked: all who ask in it are in line first
    vi.advanceTimersByTime(0);
    expect(granted).toEqual(['second, in view']);
    vi.advanceTimersByTime(0);
    expect(granted).toHaveLength(1); // the turn is still taken: the second has not drawn
    turns[1].done();
    expect(granted).toHaveLength(1);
    vi.advanceTimersByTime(0);
    expect(granted).toEqual(['second, in view', 'third, in view']);
    turns[2].done();
    vi.advanceTimersByTime(0);
    expect(granted).toEqual(['second, in view', 'third, in view', 'first, out of view']);
    turns[0].done();
  });

  it('takes the turn back from a chart that never says it drew, and skips one that left', () => {
    ask('silent', chartAt(0));
    const leaving = ask('leaving', chartAt(200));
    const last = ask('last', chartAt(400));
    vi.advanceTimersByTime(0);
    expect(granted).toEqual(['silent']);
    leaving.done(); // gone before its turn
    vi.advanceTimersByTime(TURN_LIMIT_MS - 50);
    expect(granted).toEqual(['silent']);
    vi.advanceTimersByTime(100);
    vi.advanceTimersByTime(0);
    expect(granted).toEqual(['silent', 'last']);
    last.done();
  });
});
