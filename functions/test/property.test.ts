import { describe, expect, it } from 'vitest';
import { fuzzRoutes } from './route-fuzz.ts';

describe('every route, random input', () => {
  it('answers 2xx or 4xx JSON, never a 5xx or a stack trace, and a refusal changes no stored data', async () => {
    const { failure, runs } = await fuzzRoutes(100);
    expect(failure).toBeUndefined();
    expect(runs).toBe(100);
  }, 120_000);
});
