import { Component, type ReactNode } from 'react';
import { RouteError } from './route-error';

/** Catches a page that fails to render or whose chunk fails to load (e.g. after a deploy). */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
