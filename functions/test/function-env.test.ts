import { afterEach, describe, expect, it } from 'vitest';
import { withFunctionEnv } from '../src/local/function-env.ts';

/** One function's variables on top of the process's, while (and only while) that function runs. */
describe('withFunctionEnv', () => {
  afterEach(() => {
    delete process.env.FN_ENV_SHARED;
    delete process.env.FN_ENV_HIDDEN;
  });

  it("shows a function its own variables across awaits, hides the ones it unsets, and leaves the process's alone", async () => {
    Object.assign(process.env, { FN_ENV_SHARED: 'process', FN_ENV_HIDDEN: 'process' });
    const seen = (label: string) =>
      withFunctionEnv({ FN_ENV_OWN: label, FN_ENV_HIDDEN: undefined }, async () => {
        await new Promise((r) => setTimeout(r, label === 'a' ? 20 : 0));
        const copy = { ...process.env };
        return { own: process.env.FN_ENV_OWN, shared: process.env.FN_ENV_SHARED, hidden: 'FN_ENV_HIDDEN' in process.env, copied: [copy.FN_ENV_OWN, 'FN_ENV_HIDDEN' in copy] };
      });
    // Two functions running at once each see their own.
    const [a, b] = await Promise.all([seen('a'), seen('b')]);
    expect(a).toEqual({ own: 'a', shared: 'process', hidden: false, copied: ['a', false] });
    expect(b).toEqual({ own: 'b', shared: 'process', hidden: false, copied: ['b', false] });
    expect(process.env.FN_ENV_OWN).toBeUndefined();
    expect(process.env.FN_ENV_HIDDEN).toBe('process');
    expect(Object.keys(process.env)).toContain('FN_ENV_HIDDEN');
    // Setting a variable outside any function still sets the process's.
    process.env.FN_ENV_SHARED = 'changed';
    expect(await withFunctionEnv({}, async () => process.env.FN_ENV_SHARED)).toBe('changed');
  });
});
