import { lazy, type ComponentType } from 'react';

/**
 * A component in its own chunk, with a way to start loading it before it renders. Once loaded,
 * it renders at once (a synchronous thenable for React.lazy): no loading fallback flashes, and
 * nothing below it shifts. A failed load can be tried again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself takes
export function lazyWithPreload<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => (loaded = module),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  const Component = lazy(() => (loaded ? ({ then: (done: (m: { default: T }) => void) => done(loaded!) } as Promise<{ default: T }>) : preload()));
  return Object.assign(Component, { preload });
}
