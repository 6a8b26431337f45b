import { AUTOSAVE_INTERVAL_MS } from '@app/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { advance, engine, fakeServer, PLAN, recording, sayAndSave, settle, transcript, unsentText, setUpAutosaveTests } from './autosave-test-kit';
import { onPlanStatus } from '../../../lib/plan-status';
import { readQueue } from './queue-storage';
import { createTransport, RETRY_BACKOFF_MAX_MS, RETRY_BACKOFF_MS } from './transport';

setUpAutosaveTests();

describe('autosave requests', () => {
  it('gets a session id on start, in the user’s session', async () => {
    const server = fakeServer();
    engine().start('pt-BR', 'x');
    await settle();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ route: 'autosaveSessionId', session: 'u1' });
  });

  it('sends nothing outside the user’s own session', async () => {
    const fetchFn = vi.fn();
    vi.stubGlobal('fetch', fetchFn);
    const transport = createTransport({ sessionUser: () => null, now: () => 0 });
    expect(await transport.sessionId('a-session-key-123')).toEqual({ status: 0, data: undefined });
    expect(await transport.save({ sessionId: 'S1', offset: 0, text: 'x', segments: [], duration: 1, language: 'pt-BR' })).toEqual({ status: 0, data: undefined });
    expect(await transport.complete('S1')).toEqual({ status: 0, data: undefined });
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it("announces the plan each save's answer carries (the plan watch takes it), and none from a refused save", async () => {
    const heard: unknown[] = [];
    const stop = onPlanStatus((status) => heard.push(status));
    const { server, a, t } = await recording();
    server.state.failSaves = 1;
    await sayAndSave(a, t, 'primeira frase');
    expect(heard).toEqual([]);
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe('primeira frase');
    expect(heard).toEqual([PLAN]);
    stop();
  });

  it('retries a failed save later without losing text', async () => {
    const { server, a, t } = await recording();
    server.state.failSaves = 1;
    await sayAndSave(a, t, 'algo importante');
    expect(server.soleSession().text).toBe('');
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe('algo importante');
    expect(console.warn).toHaveBeenCalled();
  });

  it('gets a session id later when the first request fails, and never loses the text meanwhile', async () => {
    const server = fakeServer();
    server.state.offline = true;
    const a = engine();
    const t = transcript();
    a.start('pt-BR', t.id);
    a.update(t.say('sem rede no começo'));
    await settle();
    expect(server.sessions.size).toBe(0);
    server.state.offline = false;
    await advance(AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe('sem rede no começo');
  });
});

describe('back-off when the server refuses for now (503, 429)', () => {
  const maintenance = { status: 503, data: { error: 'Under maintenance', code: 'maintenance' } };

  it('waits RETRY_BACKOFF_MS, doubling at each refusal in a row up to the maximum; any other answer but a network failure ends it', () => {
    let clock = 0;
    const transport = createTransport({ sessionUser: () => 'u1', now: () => clock });
    /** Refuses with `reply` now and returns how long requests then wait. */
    const holdAfter = (reply: { status: number; data: Record<string, unknown> | undefined }) => {
      expect(transport.refused(reply)).toBe(true);
      const from = clock;
      while (transport.holding()) clock += 1_000;
      return clock - from;
    };

    expect(transport.holding()).toBe(false);
    expect(holdAfter(maintenance)).toBe(RETRY_BACKOFF_MS);
    expect(holdAfter({ status: 429, data: undefined })).toBe(2 * RETRY_BACKOFF_MS);
    expect(transport.refused({ status: 0, data: undefined })).toBe(false); // offline: the back-off stands
    expect(holdAfter(maintenance)).toBe(4 * RETRY_BACKOFF_MS);
    for (let i = 0; i < 10; i++) holdAfter(maintenance);
    expect(holdAfter(maintenance)).toBe(RETRY_BACKOFF_MAX_MS);

    expect(transport.refused({ status: 200, data: { length: 0 } })).toBe(false);
    expect(holdAfter(maintenance)).toBe(RETRY_BACKOFF_MS);
    expect(console.warn).toHaveBeenCalledWith('[autosave]', expect.stringContaining('maintenance'));
  });
});

describe('autosave while the API refuses writes for maintenance (503)', () => {
  it('keeps the unsent text queued, backs off, and sends it once maintenance ends', async () => {
    const { server, a, t } = await recording();
    await sayAndSave(a, t, 'antes');
    expect(server.soleSession().text).toBe('antes');

    server.state.maintenance = true;
    server.calls.length = 0;
    for (let i = 0; i < 60; i++) {
      a.update(t.say(`frase ${i}`));
      await advance(10_000); // ten minutes of speech
    }
    a.complete();
    await settle();
    // Nothing confirmed, nothing dropped, the session not completed.
    expect(server.soleSession()).toMatchObject({ text: 'antes', completed: false });
    expect(readQueue()).toEqual([expect.objectContaining({ base: 'antes'.length, length: t.text.length, stopped: true })]);
    expect(await unsentText(readQueue()[0]!)).toBe(t.text.slice('antes'.length));
    // Backed off: a try on each text change after the 10-second gap would be 30 requests or more.
    expect(server.calls.length).toBeGreaterThanOrEqual(3);
    expect(server.calls.length).toBeLessThanOrEqual(6);
    expect(console.warn).toHaveBeenCalledWith('[autosave]', expect.stringContaining('maintenance'));

    server.state.maintenance = false;
    await advance(RETRY_BACKOFF_MAX_MS + AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession()).toMatchObject({ text: t.text, completed: true });
    expect(readQueue()).toEqual([]);
  });

  it('a session started during maintenance gets its id and sends its text once maintenance ends', async () => {
    const server = fakeServer();
    server.state.maintenance = true;
    const a = engine();
    const t = transcript();
    a.start('pt-BR', t.id);
    a.update(t.say('começou na manutenção'));
    await advance(AUTOSAVE_INTERVAL_MS * 4);
    await settle();
    expect(server.sessions.size).toBe(0);
    expect(readQueue()[0]).toMatchObject({ sessionId: null, base: 0, length: t.text.length });
    expect(await unsentText(readQueue()[0]!)).toBe(t.text);

    server.state.maintenance = false;
    await advance(RETRY_BACKOFF_MAX_MS + AUTOSAVE_INTERVAL_MS);
    await settle();
    expect(server.soleSession().text).toBe(t.text);
  });
});
