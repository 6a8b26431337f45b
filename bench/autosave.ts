import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../functions/src/db/client.ts';
import { setPlan } from '../functions/src/db/users.ts';
import { resetEnv } from '../functions/src/lib/env.ts';
import { call, registerUser } from '../functions/test/call.ts';
import { withLocalStore } from './store.ts';

/**
 * Autosave cost of a simulated 2-hour session (130 words a minute, a save every 30 s):
 * bytes uploaded and DynamoDB write units as DynamoDB Local reports them
 * (ReturnConsumedCapacity), for the delta protocol (the real handler) and for resending
 * the full transcript each time (stored as one item, rewritten each save); the user's autosave
 * meter (per-minute and daily limits, one write a save whatever the protocol) is shown apart.
 * Then the size of a first page of 50 saved transcriptions of 100 KB each. Budgets: >= 20x
 * fewer bytes and storage write units; first page < 50 KB.
 */
const WORDS = 'então vamos falar sobre a transcrição automática de reuniões longas com vários participantes e muitas ideias importantes'.split(' ');
const WPM = 130;
const SAVE_EVERY_S = 30;
const SESSION_S = 2 * 3600;

let wcu = 0;
/** Write units of the user's autosave meter (the per-minute and daily limits): the same for either protocol. */
let meterWcu = 0;
function trackCapacity() {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const isWrite = /Put|Update|Delete|TransactWrite|BatchWrite/.test(context.commandName ?? '');
      if (isWrite) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const cc = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const key = (args.input as { Key?: { PK?: unknown } }).Key?.PK;
      const meter = typeof key === 'string' && key.startsWith('RATE#autosave#');
      for (const c of isWrite ? (Array.isArray(cc) ? cc : cc ? [cc] : []) : []) {
        const units = Number((c as { CapacityUnits?: number }).CapacityUnits ?? 0);
        if (meter) meterWcu += units;
        else wcu += units;
      }
      return out;
    },
    { step: 'initialize', name: 'benchCapacity' },
  );
}

export async function benchAutosave(): Promise<{ lines: string[]; ok: boolean }> {
  // A session's saves are replayed back to back: far past a client's saves a minute.
  process.env.AUTOSAVE_SAVES_PER_MINUTE = String(Number.MAX_SAFE_INTEGER);
  resetEnv();
  return withLocalStore(async () => {
    trackCapacity();
    const user = await registerUser();
    const sessionId = (await call<{ sessionId: string }>('autosaveSessionId', { token: user.token })).body.sessionId;

    // The transcript as it grows, one save every 30 s.
    let text = '';
    let word = 0;
    let deltaBytes = 0;
    let fullBytes = 0;
    let deltaWcu = 0;
    let fullWcu = 0;
    const saves = SESSION_S / SAVE_EVERY_S;
    for (let i = 1; i <= saves; i++) {
      const from = text.length;
      const segText: string[] = [];
      for (let w = 0; w < (WPM * SAVE_EVERY_S) / 60; w++) segText.push(WORDS[word++ % WORDS.length]!);
      const added = (text ? ' ' : '') + segText.join(' ');
      text += added;
      const duration = i * SAVE_EVERY_S;
      const segments = [{ text: segText.join(' '), startMs: (duration - SAVE_EVERY_S) * 1000, endMs: duration * 1000 }];

      const deltaBody = { sessionId, offset: from, text: added, segments, duration, language: 'pt-BR' };
      deltaBytes += Buffer.byteLength(JSON.stringify(deltaBody));
      wcu = 0;
      const res = await call('autosaveSave', { token: user.token, body: deltaBody });
      if (res.status !== 200) throw new Error(`delta save failed: ${JSON.stringify(res.body)}`);
      deltaWcu += wcu;

      const fullBody = { sessionId, fullTranscript: text, duration, language: 'pt-BR' };
      fullBytes += Buffer.byteLength(JSON.stringify(fullBody));
      wcu = 0;
      await db().send(new PutCommand({ TableName: tableName(), Item: { PK: 'BENCH#full', SK: sessionId, text, duration, language: 'pt-BR' } }));
      fullWcu += wcu;
    }
    const stored = await call<{ fullTranscript: string }>('getAutomaticTranscription', { token: user.token, params: { id: sessionId } });
    const intact = stored.body.fullTranscript === text;

    // First page of 50 saved transcriptions of 100 KB each.
    await setPlan(user.id, 'pro', null);
    const body = 'palavra '.repeat(12_800); // 102,400 bytes
    for (let i = 0; i < 50; i++) {
      const r = await call('saveTranscription', { token: user.token, body: { title: `Aula ${i}`, duration: 3600, fullTranscript: body } });
      if (r.status !== 200) throw new Error('save failed');
    }
    const page = await call('listTranscriptions', { token: user.token, query: { limit: '50' } });
    const pageBytes = Buffer.byteLength(JSON.stringify(page.body));
    const items = (page.body as { transcriptions: unknown[] }).transcriptions.length;

    const byteRatio = fullBytes / deltaBytes;
    const wcuRatio = fullWcu / deltaWcu;
    const ok = intact && byteRatio >= 20 && wcuRatio >= 20 && pageBytes < 50 * 1024 && items === 50;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    return {
      ok,
      lines: [
        `2-hour session: ${saves} saves, ${text.length.toLocaleString('en')} characters, stored text intact: ${intact}`,
        `  delta protocol:  ${kb(deltaBytes).padStart(10)} uploaded, ${deltaWcu.toFixed(0).padStart(6)} write units`,
        `  full resend:     ${kb(fullBytes).padStart(10)} uploaded, ${fullWcu.toFixed(0).padStart(6)} write units`,
        `  ratio:           ${byteRatio.toFixed(1)}x fewer bytes, ${wcuRatio.toFixed(1)}x fewer storage write units (budget >= 20x)`,
        `  meter:           ${meterWcu.toFixed(0)} write units (${(meterWcu / saves).toFixed(1)} a save, for either protocol)`,
        `first page of 50 transcriptions of 100 KB: ${kb(pageBytes)} (${items} items; budget < 50 KB)`,
      ],
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, ok } = await benchAutosave();
  for (const l of lines) console.log(l);
  console.log(ok ? 'autosave budgets: OK' : 'autosave budgets: OVER BUDGET');
}
