import fc from 'fast-check';
import { routes, type RouteName } from '@app/shared/routes';
import { tableName } from '../src/db/client.ts';
import { scanPages } from '../src/db/pages.ts';
import { setPlan } from '../src/db/users.ts';
import { call, registerUser, sessionCookieOf } from './call.ts';

/**
 * Random bodies, query strings, headers, path ids and tokens to every route of the table.
 * Every answer must be JSON, never a 5xx, and a 4xx must carry `error` and leave the stored
 * data exactly as it was (rate-limit counters aside: counting refused attempts is their job).
 * Used by the property test (100 runs) and the benchmark (1,000 runs).
 */
const names = Object.keys(routes) as RouteName[];
const str = (max = 60) => fc.string({ maxLength: max });
const ulidLike = fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/);

const fields = fc.record(
  {
    name: fc.oneof(str(), fc.integer(), fc.constant(null)),
    email: fc.oneof(fc.emailAddress(), str(), fc.constant(null)),
    password: fc.oneof(str(), fc.integer()),
    newPassword: str(),
    token: fc.oneof(str(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)),
    recaptchaToken: fc.oneof(fc.constant('test-pass'), str()),
    language: fc.oneof(fc.constantFrom('pt', 'en', 'es', 'pt-BR', 'xx'), str()),
    theme: fc.oneof(fc.constantFrom('light', 'dark'), str()),
    transcriptionLang: fc.oneof(fc.constantFrom('en-US', 'ru-RU'), str()),
    title: fc.oneof(str(120), fc.constant('   ')),
    subject: str(200),
    message: str(200),
    fullTranscript: str(300),
    duration: fc.oneof(fc.double(), fc.integer(), str()),
    sessionId: fc.oneof(ulidLike, str()),
    offset: fc.oneof(fc.integer(), fc.double(), str()),
    text: str(200),
    segments: fc.oneof(fc.array(fc.record({ text: str(), startMs: fc.integer(), endMs: fc.integer() }), { maxLength: 3 }), str()),
    currency: fc.oneof(fc.constantFrom('USD', 'BRL', 'EUR', 'usd'), str()),
    cookies: fc.oneof(fc.boolean(), str()),
    screen: fc.oneof(fc.constantFrom('1920x1080', 'abc'), str()),
    deviceType: fc.oneof(fc.constantFrom('mobile', 'tablet', 'desktop', 'tv'), str()),
    surveyShown: fc.oneof(fc.boolean(), str()),
  },
  { requiredKeys: [] },
);
const bodyArb = fc.oneof(
  fields.map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  str(200),
  fc.constantFrom('', '{', 'null', '[]', '{"__proto__":{"x":1}}', '\u0000', '{"email":"a@b.co"}'.repeat(3)),
);
const queryArb = fc.record(
  {
    month: fc.oneof(fc.constantFrom('2026-11', '2026-13', '0000-00'), str(10)),
    search: str(120),
    cursor: str(80),
    limit: fc.oneof(fc.constantFrom('1', '0', '101', '-5', 'x'), str(5)),
    completed: fc.oneof(fc.constantFrom('true', 'false', 'maybe'), str(5)),
    tzOffset: fc.oneof(fc.constantFrom('-180', '9999'), str(5)),
    key: fc.oneof(fc.constantFrom('0123456789abcdef', 'short', 'with space and #'), str(70)),
  },
  { requiredKeys: [] },
);
const authArb = fc.oneof(
  fc.constantFrom('none', 'owner', 'owner', 'other'),
  fc.string({ maxLength: 200 }).map((s) => `raw:${s}`),
  fc.constantFrom('raw:Bearer ', 'raw:Bearer a.b.c', 'raw:bearer x', 'raw:Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'),
);

type Snapshot = Map<string, string>;
async function snapshot(): Promise<Snapshot> {
  const items = new Map<string, string>();
  for await (const out of scanPages({ TableName: tableName(), ConsistentRead: true })) {
    for (const item of out.Items ?? []) {
      if (String(item.PK).startsWith('RATE#')) continue;
      items.set(`${item.PK}|${item.SK}`, JSON.stringify(item));
    }
  }
  return items;
}

function sameData(a: Snapshot, b: Snapshot): string | undefined {
  for (const [k, v] of a) if (b.get(k) !== v) return `${k} changed or vanished`;
  for (const k of b.keys()) if (!a.has(k)) return `${k} appeared`;
  return undefined;
}

export async function fuzzRoutes(numRuns: number, seed?: number): Promise<{ failure?: string; runs: number }> {
  const owner = await registerUser();
  const other = await registerUser();
  await setPlan(owner.id, 'pro', null);
  await setPlan(other.id, 'pro', null);
  const ownerItems: string[] = [];
  const otherItems: string[] = [];
  for (const [u, list] of [[owner, ownerItems], [other, otherItems]] as const) {
    const saved = await call<{ _id: string }>('saveTranscription', { token: u.token, body: { title: 'Fuzz', duration: 1, fullTranscript: 'fuzz text' } });
    const session = await call<{ sessionId: string }>('autosaveSessionId', { token: u.token });
    list.push(saved.body._id, session.body.sessionId);
  }
  const idArb = fc.oneof(fc.constantFrom(...ownerItems, ...otherItems), ulidLike, str(40));

  const result = await fc.check(
    fc.asyncProperty(fc.constantFrom(...names), bodyArb, queryArb, authArb, idArb, async (name, rawBody, query, auth, id) => {
      const headers: Record<string, string> = {};
      let token: string | undefined;
      if (auth === 'owner') token = owner.token;
      else if (auth === 'other') token = other.token;
      else if (auth.startsWith('raw:')) headers.authorization = auth.slice(4);
      if (name === 'stripeWebhook') headers['stripe-signature'] = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
      const before = await snapshot();
      const res = await call(name, { rawBody, headers, query, token, params: { id } });
      if (res.status >= 500) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)} for ${rawBody}`);
      if ((name === 'logout' || name === 'logoutEverywhere') && res.status === 200) {
        // A logout ends the session (everywhere: every one of that user): sign in again so later runs still act as them.
        const u = token === owner.token ? owner : other;
        u.token = sessionCookieOf(await call('login', { body: { email: u.email, password: u.password } }))!;
      }
      if (!/application\/json/.test(String(res.headers['content-type']))) throw new Error(`${name} answered non-JSON`);
      if (res.status >= 400) {
        if (typeof res.body.error !== 'string') throw new Error(`${name} ${res.status} without error`);
        if (/\n\s+at |node_modules|\.ts:\d+/.test(JSON.stringify(res.body))) throw new Error(`${name} leaked a stack trace`);
        const changed = sameData(before, await snapshot());
        if (changed) throw new Error(`${name} answered ${res.status} but ${changed}`);
      }
    }),
    { numRuns, seed },
  );
  return { failure: result.failed ? `${result.counterexample ? JSON.stringify(result.counterexample).slice(0, 500) : ''}\n${String(result.errorInstance)}` : undefined, runs: result.numRuns };
}
