import { describe, expect, it } from 'vitest';
import { tokenOwner } from './token-owner';

const b64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('tokenOwner', () => {
  it('reads the user id (sub) of a session token', () => {
    expect(tokenOf({ sub: '01JUSERAAAAAAAAAAAAAAAAAAA', exp: 1 })).toBe('01JUSERAAAAAAAAAAAAAAAAAAA');
    // base64url payloads use - and _ where base64 has + and /.
    const sub = '>>>???';
    expect(b64url({ sub })).toMatch(/[-_]/);
    expect(tokenOf({ sub })).toBe(sub);
  });

  it('is null for a visitor and for anything that is not a readable token', () => {
    expect(tokenOwner(null)).toBeNull();
    expect(tokenOwner('')).toBeNull();
    expect(tokenOwner('not-a-token')).toBeNull();
    expect(tokenOwner('a.%%%.c')).toBeNull();
    expect(tokenOwner(`a.${btoa('not json')}.c`)).toBeNull();
    expect(tokenOf({ sub: 42 })).toBeNull();
    expect(tokenOf({ sub: '' })).toBeNull();
    expect(tokenOf({})).toBeNull();
  });

  it('follows the token: another user signing in is read at once, and the first again after', () => {
    expect(tokenOf({ sub: 'user-a' })).toBe('user-a');
    expect(tokenOf({ sub: 'user-b' })).toBe('user-b');
    expect(tokenOwner(null)).toBeNull();
    expect(tokenOf({ sub: 'user-a' })).toBe('user-a');
    expect(tokenOf({ sub: 'user-a' })).toBe('user-a');
    expect(tokenOwner('not-a-token')).toBeNull();
  });
});

function tokenOf(payload: unknown) {
  return tokenOwner(`eyJhbGciOiJIUzI1NiJ9.${b64url(payload)}.sig`);
}
