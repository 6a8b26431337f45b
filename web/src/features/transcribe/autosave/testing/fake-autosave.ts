import type { AutosaveEngine } from '../autosave-engine';

/** An autosave engine that does nothing but tell its session id (set by the test) to its listeners; tests override the calls they record. */
export function fakeAutosave(userId: string) {
  const listeners = new Set<() => void>();
  let sessionId: string | null = null;
  const engine: AutosaveEngine = {
    userId,
    start() {},
    update() {},
    saveNow() {},
    complete() {},
    resumePending() {},
    finish: () => Promise.resolve(),
    setLive() {},
    sessionId: () => sessionId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: () => Promise.resolve(),
    dispose() {},
  };
  /** The engine's session gets an id (or ends) and says so. */
  const setSession = (id: string | null) => {
    sessionId = id;
    for (const listener of listeners) listener();
  };
  return Object.assign(engine, { setSession, listeners });
}
