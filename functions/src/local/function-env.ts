import { processScope } from '../lib/process-scope.ts';

/**
 * One Lambda function's environment inside a process that runs many (the bundles pass): while a
 * function runs, `process.env` shows its own variables on top of the process's, as each function
 * on AWS has its own. The local server runs every bundle in one process, so `process.env` becomes
 * a view that asks the running function's scope first; outside any scope it is the process's own.
 */

/** A function's variables: a string sets one, undefined unsets it (the process's value is hidden). */
export type FunctionEnv = Readonly<Record<string, string | undefined>>;

/** The running function's variables: one scope that the view installed on `process.env` reads, whatever copy of this module set it. */
const scope = processScope<FunctionEnv>('function-env');
const installed = Symbol.for('live-transcribe.function-env.installed');

/** The scope's own entry for a variable, if it has one. */
function own(key: string | symbol): { value: string | undefined } | undefined {
  const vars = typeof key === 'string' ? scope.getStore() : undefined;
  return vars && Object.hasOwn(vars, key) ? { value: vars[key as string] } : undefined;
}

function install(): void {
  if ((process.env as Record<symbol, unknown>)[installed]) return;
  const base = process.env;
  process.env = new Proxy(base, {
    get: (target, key) => (key === installed ? true : (own(key) ?? { value: Reflect.get(target, key) as string | undefined }).value),
    has: (target, key) => {
      const mine = own(key);
      return mine ? mine.value !== undefined : Reflect.has(target, key);
    },
    ownKeys: (target) => {
      const vars = scope.getStore();
      if (!vars) return Reflect.ownKeys(target);
      const keys = new Set(Reflect.ownKeys(target));
      for (const [k, v] of Object.entries(vars)) {
        if (v === undefined) keys.delete(k);
        else keys.add(k);
      }
      return [...keys];
    },
    getOwnPropertyDescriptor: (target, key) => {
      const mine = own(key);
      if (!mine) return Reflect.getOwnPropertyDescriptor(target, key);
      return mine.value === undefined ? undefined : { value: mine.value, writable: true, enumerable: true, configurable: true };
    },
    // A function that sets a variable sets it for the process, as before (no bundle does).
    set: (target, key, value) => Reflect.set(target, key, value),
    deleteProperty: (target, key) => Reflect.deleteProperty(target, key),
  });
}

/** Runs `fn` (a function's cold start or one of its invocations) with `vars` in its `process.env`. */
export function withFunctionEnv<T>(vars: FunctionEnv, fn: () => T): T {
  install();
  return scope.run(vars, fn);
}
