// What every component renderer is given: the component, and a way to say it is drawn (the print
// view waits until every renderer has said so).
import type { Component } from '../../../schemas/component.ts';

export type BoardComponent = Component & { id: number };

export interface RendererProps {
  component: BoardComponent;
  /** Called when the component shows what it has to show (loaded, or failed and saying so). */
  onReady(): void;
  /** Drawn for printing: everything loads at once, nothing waits to be scrolled into view. */
  print?: boolean;
}

/** A component's definition as its renderer reads it. */
export const definitionOf = (component: BoardComponent) => (component.definition ?? {}) as { kpi_id?: number; url?: unknown; html?: unknown };
