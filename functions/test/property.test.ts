import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routes, type RouteName } from '@app/shared/routes';
import { call, registerUser } from './call.ts';

const names = Object.keys(routes) as RouteName[];

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const bodyArb = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', 'null', '[]', '{"email":null}', '{"__proto__":{"x":1}}', '\u0000'),
  fc.record(
    {
      name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.constant(null)),
      password: fc.oneof(fc.string(), fc.integer()),
      newPassword: fc.string(),
      token: fc.string(),
      recaptchaToken: fc.oneof(fc.constant('test-pass'), fc.string()),
      language: fc.string(),
      theme: fc.string(),
      transcriptionLang: fc.string(),
    },
    { requiredKeys: [] },
  ).map((v) => JSON.stringify(v)),
);
const tokenArb = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('Bearer ', 'Bearer a.b.c', 'bearer x', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'),
);
const queryArb = fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 4 });

describe('every route, random input', () => {
  it('answers 2xx or 4xx JSON, never a 5xx or a stack trace', async () => {
    const valid = await registerUser();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), bodyArb, tokenArb, queryArb, fc.boolean(), async (name, rawBody, auth, query, useValid) => {
        const headers: Record<string, string> = {};
        if (auth !== undefined) headers.authorization = auth;
        const res = await call(name, {
          rawBody,
          headers,
          query,
          token: useValid && auth === undefined ? valid.token : undefined,
        });
        expect(res.status, `${name} ${rawBody}`).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        if (res.status >= 400) {
          expect(typeof res.body.error).toBe('string');
          expect(JSON.stringify(res.body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
        }
      }),
      { numRuns: 100 },
    );
  });
});
