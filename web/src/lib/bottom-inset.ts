import { useLayoutEffect, type RefObject } from 'react';

/**
 * What is pinned over the bottom of the viewport (the cookie notice) reserves its height, while it
 * is shown, in the CSS variable `--bottom-inset` on <html> (0 when nothing is pinned there). Layouts
 * keep what matters above it: the live transcript, whose newest line is at its bottom, is that much
 * shorter; the page scrolls a focused control clear of it; the end of the page has room to scroll
 * out from under it.
 */
export const BOTTOM_INSET = '--bottom-inset';

/** Publishes the height of the element `ref` holds as the bottom inset, following its size, until unmounted. */
export function useBottomInset(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(BOTTOM_INSET, `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(publish);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(BOTTOM_INSET);
    };
  }, [ref]);
}
