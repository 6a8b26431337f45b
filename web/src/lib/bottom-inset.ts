import { useLayoutEffect, type RefObject } from 'react';

/**
 * What is pinned over the bottom of the viewport (the cookie notice) reserves its height, while it
 * is shown, in the CSS variable `--bottom-inset` on <html> (0 when nothing is pinned there). Layouts
 * keep what matters above it: the live transcript, whose newest line is at its bottom, is that much
 * shorter; the page scrolls a focused control clear of it; the end of the page has room to scroll
 * out from under it.
 */
export const BOTTOM_INSET = '--bottom-inset';

/**
 * Publishes the height of the element `ref` holds as the bottom inset, following its size, until
 * unmounted. The size comes from a ResizeObserver, whose first report arrives after the browser's
 * own layout and before that frame is painted: the first paint already has the inset, and the
 * commit never forces a layout of the page (reading the element's box in the effect did, a long
 * task on a phone's first load).
 */
export function useBottomInset(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    let published = '';
    const publish = (height: number) => {
      const value = `${Math.ceil(height)}px`;
      if (value === published) return;
      published = value;
      root.style.setProperty(BOTTOM_INSET, value);
    };
    if (typeof ResizeObserver === 'undefined') {
      publish(element.getBoundingClientRect().height);
      return () => root.style.removeProperty(BOTTOM_INSET);
    }
    const observer = new ResizeObserver(([entry]) => {
      if (entry) publish(entry.borderBoxSize[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BOTTOM_INSET);
    };
  }, [ref]);
}
