// A chart's canvas at rest asks the browser for no frames: drawOnDemand stops G's endless loop and
// draws once per frame only after something changed. The canvas below behaves as @antv/g-lite's
// does: a loop that renders every frame, render reasons collected in a Set and cleared by a
// render, a 'beforedestroy' event. The browser's frames are vitest's fake ones.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drawOnDemand, type LoopingCanvas } from '../../../src/components/charts/drawOnDemand.ts';

class LoopingTestCanvas implements LoopingCanvas {
  frameId?: number;
  renders = 0;
  drawn = 0;
  context = { renderingContext: { renderReasons: new Set<unknown>() } };
  private listeners: (() => void)[] = [];

  constructor() {
    const tick = () => {
      this.render();
      this.frameId = requestAnimationFrame(tick);
    };
    tick();
  }

  cancelAnimationFrame(id: number) { cancelAnimationFrame(id); }
  render() {
    this.renders += 1;
    const { renderReasons } = this.context.renderingContext;
    if (renderReasons.size) this.drawn += 1;
    renderReasons.clear();
  }
  addEventListener(_type: 'beforedestroy', listener: () => void) { this.listeners.push(listener); }
  destroy() { this.listeners.forEach((listener) => listener()); }
  change() { this.context.renderingContext.renderReasons.add('DISPLAY_OBJECT_CHANGED'); }
}

const FRAME_MS = 16;

beforeEach(() => { vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] }); });
afterEach(() => { vi.useRealTimers(); });

describe('drawOnDemand', () => {
  it('without it, the canvas renders every frame although nothing changes', () => {
    const canvas = new LoopingTestCanvas();
    vi.advanceTimersByTime(100 * FRAME_MS);
    expect(canvas.renders).toBeGreaterThanOrEqual(100);
  });

  it('stops the loop: a canvas at rest renders nothing however long it waits', () => {
    const canvas = new LoopingTestCanvas();
    drawOnDemand(canvas);
    const before = canvas.renders;
    vi.advanceTimersByTime(1_000 * FRAME_MS);
    expect(canvas.renders).toBe(before);
  });

  it('draws what the loop had not drawn yet, then rests', () => {
    const canvas = new LoopingTestCanvas();
    canvas.change(); // the chart's first shapes, added before the loop's next frame
    drawOnDemand(canvas);
    vi.advanceTimersByTime(10 * FRAME_MS);
    expect(canvas.drawn).toBe(1);
    expect(canvas.context.renderingContext.renderReasons.size).toBe(0);
  });

  it('draws once in the next frame after changes, however many there were', () => {
    const canvas = new LoopingTestCanvas();
    drawOnDemand(canvas);
    for (let change = 0; change < 50; change++) canvas.change(); // a hover moving a crosshair and a tooltip's shapes
    expect(canvas.drawn).toBe(0);
    vi.advanceTimersByTime(FRAME_MS);
    expect(canvas.drawn).toBe(1);
    vi.advanceTimersByTime(100 * FRAME_MS);
    expect(canvas.drawn).toBe(1);
    canvas.change(); // a step of an animation, later
    vi.advanceTimersByTime(FRAME_MS);
    expect(canvas.drawn).toBe(2);
  });

  it('draws nothing after the chart is destroyed, even a change already waiting for its frame', () => {
    const canvas = new LoopingTestCanvas();
    drawOnDemand(canvas);
    canvas.change();
    canvas.destroy();
    const renders = canvas.renders;
    vi.advanceTimersByTime(10 * FRAME_MS);
    canvas.change();
    vi.advanceTimersByTime(10 * FRAME_MS);
    expect(canvas.renders).toBe(renders);
  });
});
