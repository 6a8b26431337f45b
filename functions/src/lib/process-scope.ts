import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The process's one AsyncLocalStorage named `name`, shared by every copy of the module that asks
 * for it. On Lambda a process runs one bundle, so there is one copy anyway; the local server and
 * the journeys run every route's bundle in one process, each with its own copy of the modules
 * that keep a scope. Node 20 runs a hook of every scope that was ever entered on every promise
 * the process makes: a scope per copy (two in each of some sixty bundles) made each promise of
 * that process some fifty times dearer than with one scope.
 *
 * Kept on `process`, which every copy shares (in vitest's VM contexts too). The callers of one
 * name keep the same kind of value in it: it is the same module's scope in every copy.
 */
export function processScope<T>(name: string): AsyncLocalStorage<T> {
  const key = Symbol.for(`live-transcribe.scope.${name}`);
  const scopes = process as unknown as Record<symbol, AsyncLocalStorage<T> | undefined>;
  return (scopes[key] ??= new AsyncLocalStorage<T>());
}
