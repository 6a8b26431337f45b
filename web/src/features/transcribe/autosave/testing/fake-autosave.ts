import { inertEngine, type AutosaveEngine } from '../autosave-engine';

/** An autosave engine that does nothing but tell its session id (set by the test) to its listeners; tests override the calls they record. */
export function fakeAutosave(userId: string) {
  const listeners = new Set<() => void>();
  let sessionId: string | null = null;
  const engine: AutosaveEngine = {
    ...inertEngine(userId),
    sessionId: () => sessionId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  /** The engine's session gets an id (or ends) and says so. */
  const setSession = (id: string | null) => {
    sessionId = id;
    for (const listener of listeners) listener();
  };
  return Object.assign(engine, { setSession, listeners });
}
