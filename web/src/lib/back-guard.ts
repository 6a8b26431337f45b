import { useEffect, useRef } from 'react';

/**
 * While `active`, the browser's Back does not leave the page at once: an entry for the same
 * address goes on the history, so Back returns to the entry below it (the same address: the page
 * stays) and calls `onBack` instead. Then `leave()` makes the Back the user asked for, or
 * `stay()` guards again. When the guard ends unused, its entry is taken off the history.
 * (react-router's declarative router has no navigation blocker: this works under any router.)
 */
export function useBackGuard(active: boolean, onBack: () => void) {
  /**
   * `guarded`: the guard's entry is on the history, above the page's own; `ownBacks`: Back steps
   * the guard took itself, whose popstate is not the user's.
   */
  const guard = useRef({ guarded: false, ownBacks: 0 }).current;
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  });

  useEffect(() => {
    if (!active) return;
    history.pushState(history.state, '', location.href);
    guard.guarded = true;
    const onPop = () => {
      if (guard.ownBacks > 0) {
        guard.ownBacks--;
        return;
      }
      if (!guard.guarded) return;
      guard.guarded = false;
      onBackRef.current();
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      if (!guard.guarded) return;
      guard.guarded = false;
      guard.ownBacks++;
      history.back();
    };
  }, [active, guard]);

  return {
    stay: () => {
      if (!active || guard.guarded) return;
      history.pushState(history.state, '', location.href);
      guard.guarded = true;
    },
    leave: () => history.back(),
  };
}
