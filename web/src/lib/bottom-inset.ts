import { useLayoutEffect, type RefObject } from 'react';

/**
 * What is pinned over the bottom of the viewport (the cookie notice) reserves its height while it
 * is shown (0 when nothing is pinned there). Layouts keep what matters above it: the page scrolls a
 * focused control clear of it (scroll-padding on <html>); the end of the page has room to scroll
 * out from under it, and the live transcript, whose newest line is at its bottom, is that much
 * shorter (each reads the CSS variable `--bottom-inset`, set on that element alone).
 *
 * The inset is set only where it is used, never as an inherited variable on <html>: changing one
 * there makes the browser recompute the style of every element on the page, a second full style
 * pass in the first frame of a phone's first load.
 */
export const BOTTOM_INSET = '--bottom-inset';

let inset = 0;
const followers = new Set<(px: number) => void>();

function publish(px: number): void {
  if (px === inset) return;
  inset = px;
  document.documentElement.style.scrollPaddingBottom = px ? `${px}px` : '';
  for (const follow of followers) follow(px);
}

/**
 * Publishes the height of the element `ref` holds as the bottom inset, following its size, until
 * unmounted. The size comes from a ResizeObserver, whose first report arrives after the browser's
 * own layout and before that frame is painted: the first paint already has the inset, and the
 * commit never forces a layout of the page.
 */
export function useBottomInset(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = (height: number) => publish(Math.ceil(height));
    if (typeof ResizeObserver === 'undefined') {
      measure(element.getBoundingClientRect().height);
      return () => publish(0);
    }
    const observer = new ResizeObserver(([entry]) => {
      if (entry) measure(entry.borderBoxSize[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      publish(0);
    };
  }, [ref]);
}

/** Keeps `--bottom-inset` on the element `ref` holds (unset while nothing is pinned), for its CSS. */
export function useBottomInsetVariable(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const follow = (px: number) => {
      if (px) element.style.setProperty(BOTTOM_INSET, `${px}px`);
      else element.style.removeProperty(BOTTOM_INSET);
    };
    follow(inset);
    followers.add(follow);
    return () => {
      followers.delete(follow);
      element.style.removeProperty(BOTTOM_INSET);
    };
  }, [ref]);
}
