// Keeps a chart that cannot be drawn (its layout threw on an answer it could not read) from
// blanking the page: the chart's place says so instead.
import { Component, type ReactNode } from 'react';

export class PlotErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
