import { describe, expect, it } from 'vitest';
import { returnPath, returnState } from './return-to';

describe('return after login', () => {
  it('returns to the in-app page the visitor came from, with its query', () => {
    expect(returnPath(returnState({ pathname: '/transcricoes', search: '?month=2026-01' }))).toBe('/transcricoes?month=2026-01');
    expect(returnPath({ from: '/profile' })).toBe('/profile');
  });

  it('goes home without a state, or for anything that is not an in-app page', () => {
    for (const state of [undefined, null, 'x', {}, { from: 42 }, { from: 'https://evil.example/' }, { from: '//evil.example/x' }, { from: '/\\evil.example' }, { from: 'profile' }]) {
      expect(returnPath(state)).toBe('/');
    }
  });

  it('never returns to an auth page or a reset link', () => {
    for (const from of ['/login', '/register?x=1', '/forgot-password', '/reset-password/abc']) expect(returnPath({ from })).toBe('/');
  });
});
