// G, the canvas library under the charts, draws from an endless requestAnimationFrame loop: every
// chart asks the browser for a frame 60 times a second even when nothing in it changes (antvis/G
// #1626; its maintainers' advice is to stop the loop and render when needed). A dashboard of ten
// charts at rest kept 13 % of its page's main thread busy drawing nothing (bench/charts.ts, case
// (e)), on every control-room screen showing it. This stops a canvas's loop and
// draws a frame only after G records a reason to draw (new data, a hover, a resize, a step of an
// animation: every change of a shape adds one), at most once per browser frame.

/** The parts of a G canvas this uses (@antv/g-lite's Canvas). */
export interface LoopingCanvas {
  /** The loop's pending frame. */
  frameId?: number;
  cancelAnimationFrame(id: number): void;
  render(): void;
  context: { renderingContext: { renderReasons: Set<unknown> } };
  addEventListener(type: 'beforedestroy', listener: () => void): void;
}

export function drawOnDemand(canvas: LoopingCanvas): void {
  const reasons = canvas.context.renderingContext.renderReasons;
  let pending = 0;
  let destroyed = false;
  const draw = () => {
    pending = 0;
    if (!destroyed) canvas.render();
  };
  const schedule = () => {
    if (!pending && !destroyed) pending = requestAnimationFrame(draw);
  };
  const add = reasons.add.bind(reasons);
  reasons.add = (reason: unknown) => {
    schedule();
    return add(reason);
  };
  canvas.addEventListener('beforedestroy', () => {
    destroyed = true;
    if (pending) cancelAnimationFrame(pending);
  });
  if (canvas.frameId) canvas.cancelAnimationFrame(canvas.frameId);
  // what the loop had not drawn yet
  if (reasons.size) schedule();
}
