import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SEGMENTS_MAX } from '@app/shared/constants';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { setPlan } from '../src/db/users.ts';
import { unpackSegments } from '../src/domain/text.ts';
import { call, registerUser } from './call.ts';
import { storedItems } from './stored.ts';

async function proUser() {
  const u = await registerUser();
  await setPlan(u.id, 'pro', null);
  return u;
}

const save = (token: string, body: Record<string, unknown>) =>
  call<Record<string, unknown>>('saveTranscription', { token, body: { title: 'Aula', duration: 12, fullTranscript: 'olá mundo', ...body } });

describe('saved transcriptions', () => {
  it('are for Pro users only: others get 403 with requiresPro and nothing is stored', async () => {
    const free = await registerUser();
    const res = await save(free.token, {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ requiresPro: true });
    expect((await call('listTranscriptions', { token: free.token })).status).toBe(403);
    const pro = await proUser();
    expect((await call<{ transcriptions: unknown[] }>('listTranscriptions', { token: pro.token })).body.transcriptions).toEqual([]);
  });

  it.each([
    [{ title: '' }, 'Title is required'],
    [{ title: '    ' }, 'Title is required'],
    [{ title: 'x'.repeat(101) }, 'Title must be at most 100 characters'],
  ])('refuse the title %j', async (patch, message) => {
    const pro = await proUser();
    const res = await save(pro.token, patch);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect((await call<{ transcriptions: unknown[] }>('listTranscriptions', { token: pro.token })).body.transcriptions).toHaveLength(0);
  });

  it('accept a 100-character title and list newest first with a 200-character preview', async () => {
    const pro = await proUser();
    const first = await save(pro.token, { title: 'a'.repeat(100), fullTranscript: 'x'.repeat(500) });
    expect(first.status).toBe(200);
    const second = await save(pro.token, { title: 'Second' });
    const list = await call<{ transcriptions: { _id: string; preview: string; title: string }[] }>('listTranscriptions', { token: pro.token });
    expect(list.body.transcriptions.map((t) => t._id)).toEqual([second.body._id, first.body._id]);
    expect(list.body.transcriptions[1]!.preview).toHaveLength(200);
    expect(JSON.stringify(list.body)).not.toContain('fullTranscript');
  });

  it('read back text and segments; a 12-hour Russian transcript round-trips byte for byte', async () => {
    const pro = await proUser();
    const sentence = 'Съешь же ещё этих мягких французских булок, да выпей чаю. ';
    const segments: { text: string; startMs: number; endMs: number }[] = [];
    const parts: string[] = [];
    let ms = 0;
    let bytes = 0;
    while (bytes < 1_300_000) {
      const text = `${sentence}${segments.length}.`;
      segments.push({ text, startMs: ms, endMs: ms + 4000 });
      parts.push(text);
      ms += 4500;
      bytes += Buffer.byteLength(text) + 1;
    }
    const fullTranscript = parts.join(' ');
    const res = await save(pro.token, { title: 'Лекция', fullTranscript, segments, duration: 12 * 3600, language: 'ru-RU' });
    expect(res.status).toBe(200);
    const detail = await call<{ fullTranscript: string; segments: typeof segments }>('getTranscription', { token: pro.token, params: { id: res.body._id as string } });
    expect(detail.status).toBe(200);
    expect(Buffer.from(detail.body.fullTranscript).equals(Buffer.from(fullTranscript))).toBe(true);
    expect(detail.body.segments).toEqual(segments);
  });

  it('chunks written before segments were packed (a `seg` list) still read back the same segments', async () => {
    const pro = await proUser();
    const segments = [{ text: 'Olá', startMs: 0, endMs: 900 }, { text: 'mundo', startMs: 1_000, endMs: 1_800 }];
    const res = await save(pro.token, { title: 'Antiga', fullTranscript: 'Olá mundo', segments });
    const chunks = (await storedItems(pro.id)).filter((item) => typeof item.sg === 'string');
    expect(chunks).toHaveLength(1);
    const { sg, ...legacy } = chunks[0]!;
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...legacy, seg: unpackSegments(sg as string) } }));
    expect((await storedItems(pro.id)).some((item) => 'seg' in item && !('sg' in item))).toBe(true);
    const detail = await call<{ segments: typeof segments }>('getTranscription', { token: pro.token, params: { id: res.body._id as string } });
    expect(detail.body.segments).toEqual(segments);
  });

  it('are found by month and by accent- and case-insensitive search over title and whole text', async () => {
    const pro = await proUser();
    const long = `${'palavra '.repeat(20_000)}uma Transcrição escondida no fim`;
    const a = await save(pro.token, { title: 'Reunião de equipe', fullTranscript: 'nada aqui' });
    const b = await save(pro.token, { title: 'Outra', fullTranscript: long });
    await save(pro.token, { title: 'Sem relação', fullTranscript: 'texto qualquer' });
    const search = async (q: string, extra: Record<string, string> = {}) =>
      (await call<{ transcriptions: { _id: string }[] }>('listTranscriptions', { token: pro.token, query: { search: q, ...extra } })).body.transcriptions.map((t) => t._id);
    expect(await search('transcricao')).toEqual([b.body._id]);
    expect(await search('REUNIAO')).toEqual([a.body._id]);
    expect(await search('nothing-like-this')).toEqual([]);
    const month = new Date().toISOString().slice(0, 7);
    expect(await search('transcricao', { month })).toEqual([b.body._id]);
    expect(await search('transcricao', { month: '2001-01' })).toEqual([]);
    const all = await call<{ transcriptions: unknown[] }>('listTranscriptions', { token: pro.token, query: { month } });
    expect(all.body.transcriptions).toHaveLength(3);
  });

  it('page by an opaque cursor, every item exactly once, also across 1 MB search pages', async () => {
    const pro = await proUser();
    const filler = 'abc '.repeat(60_000); // ~240 KB per transcript: searches read several 1 MB pages
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await save(pro.token, { title: `T${i}`, fullTranscript: `${filler} needle ${i}` })).body._id as string);
    for (const query of [{ limit: '5' }, { limit: '5', search: 'needle' }] as Record<string, string>[]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { transcriptions: { _id: string }[]; nextCursor: string | null } } = await call('listTranscriptions', {
          token: pro.token,
          query: { ...query, ...(cursor ? { cursor } : {}) },
        });
        seen.push(...page.body.transcriptions.map((t) => t._id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
    }
    expect((await call('listTranscriptions', { token: pro.token, query: { cursor: 'garbage' } })).status).toBe(400);
    expect((await call('listTranscriptions', { token: pro.token, query: { month: '2026-13' } })).status).toBe(400);
  });

  it("user A cannot read or delete user B's transcription (404, B's item unchanged)", async () => {
    const a = await proUser();
    const b = await proUser();
    const item = await save(b.token, { title: 'Private', fullTranscript: 'secret words' });
    const id = item.body._id as string;
    expect((await call('getTranscription', { token: a.token, params: { id } })).status).toBe(404);
    expect((await call('deleteTranscription', { token: a.token, params: { id } })).status).toBe(404);
    const still = await call<{ fullTranscript: string }>('getTranscription', { token: b.token, params: { id } });
    expect(still.body.fullTranscript).toBe('secret words');
    expect((await call('deleteTranscription', { token: b.token, params: { id } })).status).toBe(200);
    expect((await call('getTranscription', { token: b.token, params: { id } })).status).toBe(404);
    expect((await call('deleteTranscription', { token: b.token, params: { id } })).status).toBe(404);
    const raw = await db().send(new GetCommand({ TableName: tableName(), Key: keys.transcriptChunk(b.id, 'TRANS', id, 0) }));
    expect(raw.Item).toBeUndefined();
  });

  it('answer 404 for a malformed id', async () => {
    const pro = await proUser();
    expect((await call('getTranscription', { token: pro.token, params: { id: 'not-an-id' } })).status).toBe(404);
  });

  const seg = (text: string, startMs = 0) => ({ text, startMs, endMs: startMs + 500 });
  it.each([
    ['hold more text than the transcript', [seg('olá mundo'), seg('olá')], 'The segments hold more text than the transcript they belong to'],
    ['outnumber the cap', Array<ReturnType<typeof seg>>(SEGMENTS_MAX + 1).fill(seg('')), `At most ${SEGMENTS_MAX.toLocaleString('en-US')} segments per request`],
    ['include one not in the text', [seg('olá'), seg('tchau')], 'Segment 2 does not match the text: segments must occur in it in order'],
    ['overlap', [seg('olá m'), seg('mun')], 'Segment 2 does not match the text: segments must occur in it in order'],
  ])('refuse segments that %s with 400, storing nothing', async (_, segments, message) => {
    const pro = await proUser();
    const before = await storedItems(pro.id);
    const res = await save(pro.token, { segments });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(await storedItems(pro.id)).toEqual(before);
  });
});

