import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from './constants.ts';
import { sessionTokenOf, setCookiesOf } from './session-cookie.ts';

describe('sessionTokenOf', () => {
  it('reads the session cookie among others, ignoring its attributes', () => {
    expect(sessionTokenOf(['theme=dark; Path=/', `${SESSION_COOKIE}=abc.def; HttpOnly; Secure; Path=/`])).toBe('abc.def');
  });
  it("is '' for a cleared cookie and undefined when none is set, or only a cookie whose name merely starts alike", () => {
    expect(sessionTokenOf([`${SESSION_COOKIE}=; Max-Age=0`])).toBe('');
    expect(sessionTokenOf([`${SESSION_COOKIE}x=1`, 'other=2'])).toBeUndefined();
    expect(sessionTokenOf([])).toBeUndefined();
  });
  it('takes the Set-Cookie values of a header list whatever their case', () => {
    expect(setCookiesOf([{ name: 'Set-Cookie', value: 'a=1' }, { name: 'content-type', value: 'x' }, { name: 'set-cookie', value: 'b=2' }])).toEqual(['a=1', 'b=2']);
  });
});
