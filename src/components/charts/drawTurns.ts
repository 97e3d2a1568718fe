// The charts of a page draw one at a time, in the order a person sees them: those in view first,
// top to bottom and left to right, then those scrolled out of view. A plot's first drawing is a
// long task on a modest machine (100–200 ms on the CPU); ten of them made together held the main
// thread for a second and more, drew nothing until all were done and let no key press or scroll
// through meanwhile (bench/charts.ts, case (c)). A chart waits for its turn once its data is in,
// and gives the turn back when it has drawn (or failed, or gone): the next one is made in a task
// of its own right after, and draws in the next frame, so no two draw in the same frame.
import { createContext, createElement, useCallback, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/** A chart that never says it drew (its code failed to load, say) holds the others no longer than this. */
export const TURN_LIMIT_MS = 2_000;

interface Waiting { element: Element; grant(): void }

export interface DrawTurn {
  /** The chart drew, failed or went: the next one may. */
  done(): void;
}

const waiting = new Set<Waiting>();
let drawing: Waiting | undefined;
let pending: ReturnType<typeof setTimeout> | undefined;
let limit: ReturnType<typeof setTimeout> | undefined;

/** Whether any of the element shows: inside the window and every ancestor that clips it. */
export function isInView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  let { top, bottom, left, right } = box;
  top = Math.max(top, 0);
  left = Math.max(left, 0);
  bottom = Math.min(bottom, window.innerHeight);
  right = Math.min(right, window.innerWidth);
  for (let parent = element.parentElement; parent && bottom > top && right > left; parent = parent.parentElement) {
    const { overflowX, overflowY } = getComputedStyle(parent);
    if (overflowX === 'visible' && overflowY === 'visible') continue;
    const clip = parent.getBoundingClientRect();
    top = Math.max(top, clip.top);
    bottom = Math.min(bottom, clip.bottom);
    left = Math.max(left, clip.left);
    right = Math.min(right, clip.right);
  }
  return bottom > top && right > left && box.width > 0 && box.height > 0;
}

/** The next chart to draw: the first in view in document order, else the first of all. */
function nextInLine(): Waiting | undefined {
  const inDocumentOrder = [...waiting].sort((a, b) => (a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return inDocumentOrder.find((entry) => isInView(entry.element)) ?? inDocumentOrder[0];
}

function release(entry: Waiting) {
  waiting.delete(entry);
  if (drawing !== entry) return;
  drawing = undefined;
  clearTimeout(limit);
  schedule();
}

/** The next turn, given in a task of its own (the charts asking in the same one all in line first). */
function schedule() {
  if (pending !== undefined || drawing || !waiting.size) return;
  pending = setTimeout(() => {
    pending = undefined;
    if (drawing) return;
    const next = nextInLine();
    if (!next) return;
    waiting.delete(next);
    drawing = next;
    limit = setTimeout(() => release(next), TURN_LIMIT_MS);
    next.grant();
  }, 0);
}

/** Asks a turn to draw the chart of `element`; `grant` is called when it comes. */
export function requestDrawTurn(element: Element, grant: () => void): DrawTurn {
  const entry: Waiting = { element, grant };
  waiting.add(entry);
  schedule();
  return { done: () => release(entry) };
}

/** Whether the charts inside take turns (a print view wants them all at once, and no one reads it meanwhile). */
const TakingTurns = createContext(true);

/** Charts inside draw as soon as their data is in, not in turns. */
export const DrawAllAtOnce = ({ children }: { children: ReactNode }) => createElement(TakingTurns.Provider, { value: false }, children);

/**
 * Whether the chart in `ref` may draw: false until its turn comes once it `wants` to (it has its
 * data), true from then on (later data redraws it at once). `drawn` gives the turn back; leaving
 * the page does too.
 */
export function useDrawTurn(ref: RefObject<Element | null>, wants: boolean): [granted: boolean, drawn: () => void] {
  const takingTurns = useContext(TakingTurns);
  const [granted, setGranted] = useState(!takingTurns);
  const turn = useRef<DrawTurn | undefined>(undefined);
  const grantedRef = useRef(granted);
  grantedRef.current = granted;
  useEffect(() => {
    if (!wants || granted) return undefined;
    const element = ref.current;
    if (!element) return undefined;
    const own = requestDrawTurn(element, () => setGranted(true));
    turn.current = own;
    // still waiting when no longer wanted: out of the line (a granted turn ends with `drawn`)
    return () => { if (turn.current === own && !grantedRef.current) own.done(); };
  }, [ref, wants, granted]);
  useEffect(() => () => turn.current?.done(), []);
  const drawn = useCallback(() => turn.current?.done(), []);
  return [granted, drawn];
}
