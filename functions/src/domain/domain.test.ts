import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';
import { FREE_AUTOMATIC_PER_MONTH } from '@app/shared/constants';
import { returnOrigin, siteOrigins } from './origins.ts';
import { automaticPerMonth, effectivePlan, PLAN_GRACE_MS } from './plan.ts';
import { hashResetToken, newResetToken } from './reset-token.ts';
import { LEGACY_DEFAULT_RECOGNITION_LANGUAGE, recognitionLanguageOf } from './users.ts';

describe('passwords', () => {
  it('verifies the right password only, with parameters stored in the hash', async () => {
    const hash = await hashPassword('sêcret-pass', 12);
    expect(hash).toMatch(/^scrypt\$12\$8\$1\$/);
    expect(await verifyPassword('sêcret-pass', hash)).toBe(true);
    expect(await verifyPassword('secret-pass', hash)).toBe(false);
    expect(await verifyPassword('sêcret-pass', 'garbage')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same-password', 10)).not.toBe(await hashPassword('same-password', 10));
  });

  it('runs at the production cost (N = 2^17) within scrypt memory limits', async () => {
    const hash = await hashPassword('production-cost', 17);
    expect(await verifyPassword('production-cost', hash)).toBe(true);
  });
});

describe('effectivePlan', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  it.each([
    [{ plan: 'free', planExpiry: null }, 'free'],
    [{ plan: 'pro', planExpiry: null }, 'pro'],
    [{ plan: 'premium', planExpiry: null }, 'pro'],
    [{ plan: 'pro', planExpiry: '2026-07-01T00:00:00Z' }, 'pro'],
    [{ plan: 'pro', planExpiry: new Date(now - PLAN_GRACE_MS + 1000).toISOString() }, 'pro'],
    [{ plan: 'pro', planExpiry: new Date(now - PLAN_GRACE_MS - 1000).toISOString() }, 'free'],
    // Cancelled at the period end: Pro until then, free from that moment (no grace).
    [{ plan: 'pro', planExpiry: new Date(now + 1000).toISOString(), planRenews: false }, 'pro'],
    [{ plan: 'pro', planExpiry: new Date(now - 1000).toISOString(), planRenews: false }, 'free'],
    [{ plan: 'pro', planExpiry: new Date(now - 1000).toISOString(), planRenews: true }, 'pro'],
  ])('%j is %s', (user, expected) => {
    expect(effectivePlan(user, now)).toBe(expected);
  });
});

describe('recognitionLanguageOf', () => {
  it.each([
    // Not chosen: the interface language's locale.
    [{ language: 'pt' }, 'pt-BR'],
    [{ language: 'en' }, 'en-US'],
    [{ language: 'es' }, 'es-ES'],
    // Chosen (marked): kept whatever the interface language, the old default included.
    [{ language: 'en', transcriptionLang: 'fr-FR', transcriptionLangChosen: true }, 'fr-FR'],
    [{ language: 'es', transcriptionLang: LEGACY_DEFAULT_RECOGNITION_LANGUAGE, transcriptionLangChosen: true }, 'pt-BR'],
    // Unmarked records from before: the old default is no choice; any other value is one.
    [{ language: 'en', transcriptionLang: LEGACY_DEFAULT_RECOGNITION_LANGUAGE }, 'en-US'],
    [{ language: 'es', transcriptionLang: LEGACY_DEFAULT_RECOGNITION_LANGUAGE }, 'es-ES'],
    [{ language: 'en', transcriptionLang: 'ru-RU' }, 'ru-RU'],
  ] as const)('%j gets %s', (user, expected) => {
    expect(recognitionLanguageOf(user)).toBe(expected);
  });
});

describe('site origins', () => {
  it('a deployed site has its own origin only; on this machine, each loopback name on the same port', () => {
    expect(siteOrigins('https://transcribe.example.com')).toEqual(['https://transcribe.example.com']);
    expect(siteOrigins('https://transcribe.example.com/')).toEqual(['https://transcribe.example.com']);
    expect(siteOrigins('http://localhost:3000')).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
    expect(siteOrigins('http://127.0.0.1:8080/')).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']);
    expect(siteOrigins('http://localhost')).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]']);
  });

  it("sends the caller back to their origin when it is the site's, anything else to APP_URL's", () => {
    expect(returnOrigin('http://localhost:3000', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(returnOrigin('http://localhost:3000', 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(returnOrigin('https://transcribe.example.com', 'https://transcribe.example.com')).toBe('https://transcribe.example.com');
    for (const origin of [undefined, 'null', '', 'https://attacker.example', 'http://127.0.0.1:3001', 'http://127.0.0.1:3000/', 'http://127.0.0.2:3000']) {
      expect(returnOrigin('http://localhost:3000', origin), String(origin)).toBe('http://localhost:3000');
    }
    expect(returnOrigin('https://transcribe.example.com', 'http://localhost:3000')).toBe('https://transcribe.example.com');
  });
});

describe('automaticPerMonth', () => {
  it('keeps FREE_AUTOMATIC_PER_MONTH automatic transcriptions a month for free, no limit for Pro', () => {
    expect(automaticPerMonth('free')).toBe(FREE_AUTOMATIC_PER_MONTH);
    expect(automaticPerMonth('pro')).toBeUndefined();
  });
});

describe('reset tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256', () => {
    const a = newResetToken();
    const b = newResetToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashResetToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
