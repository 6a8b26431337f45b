import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecognitionEngine } from '../engine/recognition-engine';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import type { RecoveryStore } from '../lib/recovery';
import { TranscriptionController, type Notice } from '../lib/transcription-controller';
import { OnDeviceState } from './on-device-state';

/** Private recognition, the network-drop switch and the on-device errors: the state as the controller's policy, with the real engine. */

let notices: Notice[];

const recovery: RecoveryStore = {
  begin: () => undefined,
  adopt: () => undefined,
  append: () => undefined,
  setDuration: () => undefined,
  flush: async () => undefined,
  flushSync: () => undefined,
  pageShown: () => undefined,
  discard: () => undefined,
  detach: () => undefined,
  load: async () => null,
};

function makeController() {
  const c = new TranscriptionController({
    Recognition: FakeRecognition,
    loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: () => recovery }),
    notify: (n) => notices.push(n),
    limitMs: () => null,
    owner: () => null,
    now: () => 0,
    language: 'en-US',
  });
  const state = new OnDeviceState(c);
  c.setRecognizerPolicy(state);
  return Object.assign(c, { state });
}

async function started(c: TranscriptionController) {
  c.start();
  await vi.advanceTimersByTimeAsync(0);
}

const rec = () => FakeRecognition.current;

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
  notices = [];
});
afterEach(() => FakeRecognition.reset());

describe('OnDeviceState: the recognizer of the controller\'s sessions', () => {
  it('private mode runs every recognizer with processLocally, and the badge state says so', async () => {
    const c = makeController();
    c.state.setReady(true);
    c.state.setPrivate(true);
    expect(c.state.getSnapshot().recognizer).toBe('on-device');
    await started(c);
    expect(rec().processLocally).toBe(true);
    c.state.setPrivate(false);
    expect(rec().processLocally).toBe(false);
    expect(c.state.getSnapshot().recognizer).toBe('cloud');
  });

  it('a network drop moves to this device and back when the network returns, nothing lost or repeated', async () => {
    const c = makeController();
    c.state.setReady(true);
    await started(c);
    rec().final('one');
    rec().interim('two');
    c.state.networkChanged(false);
    expect(c.state.getSnapshot()).toMatchObject({ recognizer: 'on-device', offlineSwitch: true });
    expect(rec().processLocally).toBe(true);
    rec().final('three');
    c.state.networkChanged(true);
    expect(c.state.getSnapshot()).toMatchObject({ recognizer: 'cloud', offlineSwitch: false });
    rec().final('four');
    expect(c.store.text).toBe('one two three four');
  });

  it('a network error of the cloud recognizer switches at once instead of retrying', async () => {
    const c = makeController();
    c.state.setReady(true);
    await started(c);
    rec().interim('hello');
    rec().error('network');
    rec().end();
    expect(c.state.getSnapshot().recognizer).toBe('on-device');
    expect(c.getSnapshot().reconnecting).toBeNull();
    expect(rec()).toMatchObject({ processLocally: true, started: true });
    expect(c.store.text).toBe('hello');
  });

  it('without on-device recognition for the language, a network drop keeps the cloud recognizer (retries as before)', async () => {
    const c = makeController();
    c.state.setReady(false);
    await started(c);
    c.state.networkChanged(false);
    expect(c.state.getSnapshot().recognizer).toBe('cloud');
    rec().error('network');
    rec().end();
    expect(c.getSnapshot().reconnecting).toMatchObject({ attempt: 1 });
  });

  it.each(['service-not-allowed', 'language-not-supported'])('%s while private: paused with the text, and the cloud recognizer continues it', async (code) => {
    const c = makeController();
    c.state.setReady(true);
    c.state.setPrivate(true);
    await started(c);
    rec().final('before');
    rec().interim('pending');
    rec().error(code);
    expect(c.getSnapshot().status).toBe('paused');
    expect(c.state.getSnapshot().missing).toBe(code);
    expect(notices).toEqual([]);
    expect(c.store.text).toBe('before pending');
    c.state.useCloud();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getSnapshot().status).toBe('recording');
    expect(c.state.getSnapshot()).toEqual({ privateMode: false, offlineSwitch: false, recognizer: 'cloud', missing: null });
    expect(rec()).toMatchObject({ processLocally: false, started: true });
    rec().final('after');
    expect(c.store.text).toBe('before pending after');
  });

  it('the same errors from the cloud recognizer stop the session as before', async () => {
    const c = makeController();
    await started(c);
    rec().final('words');
    rec().error('language-not-supported');
    expect(c.getSnapshot().status).toBe('stopped');
    expect(c.state.getSnapshot().missing).toBeNull();
    expect(notices).toEqual([{ kind: 'error', code: 'language-not-supported' }]);
  });
});
