import { STORAGE_KEYS } from '@app/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../test/render';
import { createAutosaveEngine } from './autosave/autosave-engine';
import { readQueue } from './autosave/queue-storage';
import { LOGOUT_SEND_MS, logOutDevice } from './device-data';
import { createRecoveryStore, readTranscript } from './lib/recovery';
import { hasRecoveryMarker } from './lib/recovery-marker';


/** What an earlier page load of `userId` left on this device: its transcript's device copy, and an autosave session the server has not got. */
function leftBy(userId: string, text: string) {
  const id = `r-${userId}`;
  const segment = { text, startMs: 0, endMs: 900 };
  const engine = createAutosaveEngine({ userId, sessionUser: () => null });
  engine.start('en-US', id);
  engine.update({ transcript: id, text, segments: [segment], durationSec: 1, language: 'en-US' });
  engine.dispose();
  const store = createRecoveryStore();
  store.begin({ id, userId, language: 'en-US', startedAt: '2025-05-01T10:00:00.000Z' });
  store.append(segment);
  store.flushSync('');
}

describe('logout on this device', () => {
  it('sends the user’s queued text in their session first, then removes only their transcripts from the device', async () => {
    leftBy('u2', 'words of another account');
    leftBy('u1', 'words of the user leaving');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    const log: string[] = [];
    const calls = mockFetch((call) => {
      log.push(call.route ?? call.url);
      if (call.route === 'autosaveSessionId' && call.query.key) return json(200, { sessionId: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
      if (call.route === 'autosaveSave') {
        const body = call.body as { offset: number; text: string };
        return json(200, { length: body.offset + body.text.length });
      }
      return json(200, { ok: true });
    });

    await logOutDevice('u1', () => {
      log.push('end session');
      window.localStorage.removeItem(STORAGE_KEYS.sessionUser);
    });

    expect(log).toEqual(['autosaveSessionId', 'autosaveSave', 'autosaveComplete', 'end session']);
    expect(calls[1]?.body).toMatchObject({ offset: 0, text: 'words of the user leaving' });
    expect(calls.every((c) => c.signedInAs === 'u1' && c.credentials === 'same-origin')).toBe(true);
    expect(readQueue().map((e) => [e.userId, e.base, e.length])).toEqual([['u2', 0, 'words of another account'.length]]);
    expect((await readTranscript('r-u2'))?.segments.map((s) => s.text)).toEqual(['words of another account']);
    expect(await readTranscript('r-u1')).toBeNull();
    expect(hasRecoveryMarker()).toBe(false);
    expect(await createRecoveryStore().load('u1')).toBeNull();
  });

  it('waits at most LOGOUT_SEND_MS for a server that does not answer, then ends the session and wipes all the same', async () => {
    vi.useFakeTimers();
    leftBy('u1', 'never sent');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    mockFetch(() => new Promise<Response>(() => undefined));
    const endSession = vi.fn(() => window.localStorage.removeItem(STORAGE_KEYS.sessionUser));

    const done = logOutDevice('u1', endSession);
    await vi.advanceTimersByTimeAsync(LOGOUT_SEND_MS - 100);
    expect(endSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(endSession).toHaveBeenCalledTimes(1);
    expect(readQueue()).toEqual([]);
    expect(await createRecoveryStore().load('u1')).toBeNull();
  });

  it('a session that fails to end on the server still leaves the device clean, and the logout does not reject', async () => {
    leftBy('u1', 'kept until logout');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'u1');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch(() => json(503, { error: 'Under maintenance', code: 'maintenance' }));
    await expect(
      logOutDevice('u1', () => {
        window.localStorage.removeItem(STORAGE_KEYS.sessionUser);
        throw new Error('logout refused');
      }),
    ).resolves.toBeUndefined();
    expect(readQueue()).toEqual([]);
    expect(await createRecoveryStore().load('u1')).toBeNull();
  });
});
