import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAutomaticTranscription } from '../src/db/automatic-transcriptions.ts';
import { readTextFrom } from '../src/db/chunk-store.ts';
import { db } from '../src/db/client.ts';
import { chunkSkParts } from '../src/db/keys.ts';
import { setPlan } from '../src/db/users.ts';
import { CHUNK_CHARS } from '../src/domain/text.ts';
import { call, registerUser } from './call.ts';
import { storedItems } from './stored.ts';

async function proUser() {
  const u = await registerUser();
  await setPlan(u.id, 'pro', null);
  return u;
}

interface Seg {
  text: string;
  startMs: number;
  endMs: number;
}
interface Detail {
  _id: string;
  title: string;
  version: number;
  length: number;
  preview: string;
  fullTranscript: string;
  segments: Seg[];
  error?: string;
  code?: string;
}

/** `count` sentences, one segment each, 4 s apart. */
function transcript(sentence: (i: number) => string, count: number) {
  const segments: Seg[] = [];
  for (let i = 0; i < count; i++) segments.push({ text: sentence(i), startMs: i * 4000, endMs: i * 4000 + 3500 });
  return { fullTranscript: segments.map((s) => s.text).join(' '), segments };
}

async function saved(token: string, body: { fullTranscript: string; segments?: Seg[] }) {
  const res = await call<Detail>('saveTranscription', { token, body: { title: 'Aula', duration: 60, ...body } });
  expect(res.status).toBe(200);
  return res.body._id;
}

const get = (token: string, id: string) => call<Detail>('getTranscription', { token, params: { id } });
const update = (token: string, id: string, body: Record<string, unknown>) => call<Detail>('updateTranscription', { token, params: { id }, body });

/** The chunk items of one transcript, as stored. */
async function chunksOf(userId: string, id: string) {
  return (await storedItems(userId)).filter((i) => (i.SK as string).startsWith(`TRANSC#${id}#`)).map((i) => chunkSkParts(i.SK as string));
}

/** Times never go backwards and every segment is where it says, in order: what SRT and VTT need. */
function expectAligned(detail: Detail) {
  let at = 0;
  let prev = 0;
  for (const s of detail.segments) {
    expect(s.startMs).toBeGreaterThanOrEqual(prev);
    expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
    const found = detail.fullTranscript.indexOf(s.text, at);
    expect(found).toBeGreaterThanOrEqual(at);
    at = found + s.text.length;
    prev = s.startMs;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('editing a saved transcription', () => {
  it('renames alone: the version goes up, the text stays, search finds the new title', async () => {
    const pro = await proUser();
    const id = await saved(pro.token, { fullTranscript: 'olá mundo' });
    const res = await update(pro.token, id, { version: 0, title: 'Reunião de março' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: id, title: 'Reunião de março', version: 1 });
    const detail = await get(pro.token, id);
    expect(detail.body).toMatchObject({ title: 'Reunião de março', version: 1, fullTranscript: 'olá mundo' });
    const found = await call<{ transcriptions: { _id: string; version: number }[] }>('listTranscriptions', { token: pro.token, query: { search: 'reuniao' } });
    expect(found.body.transcriptions).toEqual([expect.objectContaining({ _id: id, version: 1 })]);
  });

  it('rewrites only the chunks from the first changed one; unchanged segments keep their times', async () => {
    const pro = await proUser();
    const body = transcript((i) => `Frase número ${i} sobre o orçamento do projeto.`, 2_000);
    expect(body.fullTranscript.length).toBeGreaterThan(CHUNK_CHARS * 4);
    const id = await saved(pro.token, body);
    const before = await chunksOf(pro.id, id);
    const at = body.fullTranscript.indexOf('Frase número 1500 ');
    const edited = `${body.fullTranscript.slice(0, at)}Frase número 1500 sobre o prazo${body.fullTranscript.slice(at + 'Frase número 1500 sobre o orçamento'.length)}`;
    const res = await update(pro.token, id, { version: 0, fullTranscript: edited });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, length: edited.length });

    const after = await chunksOf(pro.id, id);
    const firstChanged = before.filter((c) => c.offset <= at).at(-1)!.offset;
    // The chunks before the change are the very same items; from it on, one new generation.
    expect(after.filter((c) => c.offset < firstChanged)).toEqual(before.filter((c) => c.offset < firstChanged));
    const rewritten = after.filter((c) => c.offset >= firstChanged);
    expect(rewritten.length).toBeGreaterThan(0);
    expect(new Set(rewritten.map((c) => c.gen)).size).toBe(1);
    expect(rewritten[0]!.gen).not.toBe('');
    expect(after).toHaveLength(before.filter((c) => c.offset < firstChanged).length + rewritten.length);

    const detail = (await get(pro.token, id)).body;
    expect(detail.fullTranscript).toBe(edited);
    expect(detail.segments).toHaveLength(body.segments.length);
    expect(detail.segments[1500]).toEqual({ ...body.segments[1500], text: 'Frase número 1500 sobre o prazo do projeto.' });
    detail.segments.forEach((s, i) => i !== 1500 && expect(s).toEqual(body.segments[i]));
    expectAligned(detail);

    // A second edit works from the new layout: one before the first changed chunk rewrites from there.
    const again = await update(pro.token, id, { version: 1, fullTranscript: `Início. ${edited}` });
    expect(again.status).toBe(200);
    expect((await get(pro.token, id)).body.fullTranscript).toBe(`Início. ${edited}`);
    // A change at the very start rewrites every chunk under one new generation; the old ones are gone.
    const gens = new Set((await chunksOf(pro.id, id)).map((c) => c.gen));
    expect(gens.size).toBe(1);
    expect(gens.has('') || gens.has(rewritten[0]!.gen)).toBe(false);
    const searched = await call<{ transcriptions: unknown[] }>('listTranscriptions', { token: pro.token, query: { search: 'sobre o prazo' } });
    expect(searched.body.transcriptions).toHaveLength(1);
    const gone = await call<{ transcriptions: unknown[] }>('listTranscriptions', { token: pro.token, query: { search: 'número 1500 sobre o orçamento' } });
    expect(gone.body.transcriptions).toHaveLength(0);
  });

  it('of two concurrent saves of one version, one wins and the other gets 409 version_conflict with the current version', async () => {
    const pro = await proUser();
    const id = await saved(pro.token, transcript((i) => `Sentence ${i}.`, 50));
    const [a, b] = await Promise.all([
      update(pro.token, id, { version: 0, fullTranscript: 'Text of tab A.' }),
      update(pro.token, id, { version: 0, fullTranscript: 'Text of tab B.' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
    expect(loser.body).toMatchObject({ code: 'version_conflict', version: 1 });
    expect(loser.body.error).toBeTruthy();
    const detail = (await get(pro.token, id)).body;
    expect(detail.version).toBe(1);
    expect(detail.fullTranscript).toBe(winner === a ? 'Text of tab A.' : 'Text of tab B.');
    // Overwrite: the loser sends again with the version it was told.
    const overwrite = await update(pro.token, id, { version: 1, fullTranscript: 'Overwritten.' });
    expect(overwrite.status).toBe(200);
    expect((await get(pro.token, id)).body).toMatchObject({ version: 2, fullTranscript: 'Overwritten.' });
    // Nothing of the losing edit is left behind.
    expect((await chunksOf(pro.id, id)).length).toBe(1);
  });

  it('a 1.3 MB Chinese edit round-trips exactly, with segments still in order', async () => {
    const pro = await proUser();
    const body = transcript((i) => `今天我们讨论了项目的预算和时间表，还有下一阶段的人员安排，第${i}句。`, 15_000);
    const id = await saved(pro.token, body);
    const edited = body.fullTranscript.replace('第100句', '第一百句').replace('第14000句', '修改后的第一万四千句') + ' 最后补充一句话。';
    expect(Buffer.byteLength(edited)).toBeGreaterThan(1_300_000);
    const res = await update(pro.token, id, { version: 0, fullTranscript: edited });
    expect(res.status).toBe(200);
    const detail = (await get(pro.token, id)).body;
    expect(Buffer.from(detail.fullTranscript).equals(Buffer.from(edited))).toBe(true);
    expect(detail.segments).toHaveLength(body.segments.length);
    expect(detail.segments[100]).toMatchObject({ text: '今天我们讨论了项目的预算和时间表，还有下一阶段的人员安排，第一百句。', startMs: 400_000 });
    expect(detail.segments.at(-1)!.text).toBe(`${body.segments.at(-1)!.text} 最后补充一句话。`);
    expectAligned(detail);
  });

  it('a failure between chunk writes leaves the previous text whole and readable, and the next edit succeeds', async () => {
    const pro = await proUser();
    // Over 25 chunks: the new chunks take two BatchWriteItem requests, and the second one fails.
    const body = transcript((i) => `Предложение номер ${i}, без изменений.`, 12_000);
    const id = await saved(pro.token, body);
    const edited = body.fullTranscript.replace('номер 10,', 'номер десять,');
    const send = db().send.bind(db());
    let batches = 0;
    vi.spyOn(db(), 'send').mockImplementation(((command: unknown) => {
      if (command instanceof BatchWriteCommand && ++batches === 2) return Promise.reject(new Error('injected: the network went away'));
      return send(command as never);
    }) as never);
    const failed = await update(pro.token, id, { version: 0, fullTranscript: edited });
    expect(failed.status).toBe(500);
    expect(batches).toBeGreaterThanOrEqual(2);
    vi.restoreAllMocks();

    const detail = (await get(pro.token, id)).body;
    expect(detail.version).toBe(0);
    expect(detail.fullTranscript).toBe(body.fullTranscript);
    expect(detail.segments).toEqual(body.segments);

    const retried = await update(pro.token, id, { version: 0, fullTranscript: edited });
    expect(retried.status).toBe(200);
    expect((await get(pro.token, id)).body.fullTranscript).toBe(edited);
  });

  it('an edit whose clean-up fails is still done, and the old chunks left are never read', async () => {
    const pro = await proUser();
    const body = transcript((i) => `Sentence number ${i} of the lecture.`, 1_000);
    const id = await saved(pro.token, body);
    const edited = body.fullTranscript.replace('number 5 ', 'number five ');
    const send = db().send.bind(db());
    vi.spyOn(db(), 'send').mockImplementation(((command: unknown) => {
      const deletes = command instanceof BatchWriteCommand && JSON.stringify(command.input).includes('DeleteRequest');
      return deletes ? Promise.reject(new Error('injected')) : send(command as never);
    }) as never);
    expect((await update(pro.token, id, { version: 0, fullTranscript: edited })).status).toBe(200);
    vi.restoreAllMocks();
    const chunks = await chunksOf(pro.id, id);
    expect(chunks.some((c) => c.gen === '' && c.offset === 0)).toBe(true);
    expect(chunks.some((c) => c.gen !== '' && c.offset === 0)).toBe(true);
    expect((await get(pro.token, id)).body).toMatchObject({ version: 1, fullTranscript: edited });
  });

  it("answers 404 for another user's transcription and changes nothing", async () => {
    const owner = await proUser();
    const other = await proUser();
    const id = await saved(owner.token, { fullTranscript: 'segredo' });
    const res = await update(other.token, id, { version: 0, fullTranscript: 'hacked', title: 'hacked' });
    expect(res.status).toBe(404);
    expect((await get(owner.token, id)).body).toMatchObject({ version: 0, title: 'Aula', fullTranscript: 'segredo' });
  });

  it.each([
    [{ version: 0 }, 'Send a new text, a new title or both'],
    [{ version: 0, title: '  ' }, 'Title is required'],
    [{ version: 0, title: 'x'.repeat(101) }, 'Title must be at most 100 characters'],
    [{ version: -1, title: 'ok' }, undefined],
    [{ version: 0, title: 'x', segments: [{ text: 'a', startMs: 0, endMs: 1 }] }, 'Segments come with the text they belong to'],
    [{ version: 0, fullTranscript: 'abc', segments: [{ text: 'zzz', startMs: 0, endMs: 1 }] }, 'Segment 1 does not match the text: segments must occur in it in order'],
  ])('refuses %j with 400', async (body, message) => {
    const pro = await proUser();
    const id = await saved(pro.token, { fullTranscript: 'abc' });
    const res = await update(pro.token, id, body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.error).toBe(message);
    expect((await get(pro.token, id)).body.version).toBe(0);
  });

  it('is for Pro users only', async () => {
    const pro = await proUser();
    const id = await saved(pro.token, { fullTranscript: 'abc' });
    await setPlan(pro.id, 'free', null);
    const res = await update(pro.token, id, { version: 0, title: 'x' });
    expect(res.status).toBe(403);
  });

  it('uses the segments sent with the text when they match it', async () => {
    const pro = await proUser();
    const id = await saved(pro.token, transcript((i) => `S${i}.`, 3));
    const segments = [{ text: 'New one.', startMs: 10, endMs: 20 }, { text: 'Two.', startMs: 30, endMs: 40 }];
    expect((await update(pro.token, id, { version: 0, fullTranscript: 'New one. Two.', segments })).status).toBe(200);
    expect((await get(pro.token, id)).body.segments).toEqual(segments);
  });
});

describe('editing an automatic transcription', () => {
  async function session(token: string, text: string) {
    const { body } = await call<{ sessionId: string }>('autosaveSessionId', { token });
    const saveRes = await call('autosaveSave', {
      token,
      body: { sessionId: body.sessionId, offset: 0, text, segments: [{ text, startMs: 0, endMs: 2000 }], duration: 2, language: 'pt-BR' },
    });
    expect(saveRes.status).toBe(200);
    return body.sessionId;
  }
  const updateAuto = (token: string, id: string, body: Record<string, unknown>) => call<Detail>('updateAutomaticTranscription', { token, params: { id }, body });

  it('is refused with 409 in_progress while it is being written, then works once completed', async () => {
    const u = await registerUser();
    const id = await session(u.token, 'Aula de química em andamento');
    const early = await updateAuto(u.token, id, { version: 0, fullTranscript: 'Aula de física' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('in_progress');
    expect((await call('autosaveComplete', { token: u.token, body: { sessionId: id } })).status).toBe(200);
    const res = await updateAuto(u.token, id, { version: 0, fullTranscript: 'Aula de física terminada', title: 'Física' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, title: 'Física', length: 'Aula de física terminada'.length });
    const detail = await call<Detail>('getAutomaticTranscription', { token: u.token, params: { id } });
    expect(detail.body).toMatchObject({ version: 1, title: 'Física', fullTranscript: 'Aula de física terminada' });
    expect(detail.body.segments).toEqual([{ text: 'Aula de física terminada', startMs: 0, endMs: 2000 }]);
    const list = await call<{ transcriptions: { _id: string; version: number; title?: string }[] }>('listAutomaticTranscriptions', { token: u.token });
    expect(list.body.transcriptions[0]).toMatchObject({ _id: id, version: 1, title: 'Física' });

    // A late autosave save no longer writes to it.
    const late = await call<{ code?: string }>('autosaveSave', {
      token: u.token,
      body: { sessionId: id, offset: 'Aula de física terminada'.length, text: ' mais', duration: 3, language: 'pt-BR' },
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('edited');
    const full = await call<{ code?: string }>('autosaveSave', { token: u.token, body: { sessionId: id, fullTranscript: 'outra', duration: 3, language: 'pt-BR' } });
    expect(full.status).toBe(409);
    expect((await call<Detail>('getAutomaticTranscription', { token: u.token, params: { id } })).body.fullTranscript).toBe('Aula de física terminada');

    // A live viewer reading the session follows the layout too.
    const meta = (await getAutomaticTranscription(u.id, id))!;
    expect(await readTextFrom(u.id, 'AUTO', id, 0, meta.length, { maxChars: 1000, maxChunks: 10 }, meta.layout)).toEqual({
      from: 0,
      text: 'Aula de física terminada',
      next: meta.length,
    });
  });

  it("answers 404 for another user's", async () => {
    const owner = await registerUser();
    const other = await registerUser();
    const id = await session(owner.token, 'texto');
    await call('autosaveComplete', { token: owner.token, body: { sessionId: id } });
    expect((await updateAuto(other.token, id, { version: 0, title: 'x' })).status).toBe(404);
  });
});
