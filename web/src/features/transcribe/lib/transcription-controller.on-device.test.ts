import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecognitionEngine } from '../engine/recognition-engine';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import type { RecoveryStore } from './recovery';
import { TranscriptionController, type Notice } from './transcription-controller';

/** Private recognition, the network-drop switch and the on-device errors, on the controller with the real engine. */

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
  return new TranscriptionController({
    Recognition: FakeRecognition,
    loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: () => recovery }),
    notify: (n) => notices.push(n),
    limitMs: () => null,
    owner: () => null,
    now: () => 0,
    language: 'en-US',
  });
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

describe('TranscriptionController: on-device recognition', () => {
  it('private mode runs every recognizer with processLocally, and the badge state says so', async () => {
    const c = makeController();
    c.setOnDeviceAvailable(true);
    c.setPrivate(true);
    expect(c.getSnapshot().recognizer).toBe('on-device');
    await started(c);
    expect(rec().processLocally).toBe(true);
    c.setPrivate(false);
    expect(rec().processLocally).toBe(false);
    expect(c.getSnapshot().recognizer).toBe('cloud');
  });

  it('a network drop moves to this device and back when the network returns, nothing lost or repeated', async () => {
    const c = makeController();
    c.setOnDeviceAvailable(true);
    await started(c);
    rec().final('one');
    rec().interim('two');
    c.networkChanged(false);
    expect(c.getSnapshot()).toMatchObject({ recognizer: 'on-device', offlineSwitch: true });
    expect(rec().processLocally).toBe(true);
    rec().final('three');
    c.networkChanged(true);
    expect(c.getSnapshot()).toMatchObject({ recognizer: 'cloud', offlineSwitch: false });
    rec().final('four');
    expect(c.store.text).toBe('one two three four');
  });

  it('a network error of the cloud recognizer switches at once instead of retrying', async () => {
    const c = makeController();
    c.setOnDeviceAvailable(true);
    await started(c);
    rec().interim('hello');
    rec().error('network');
    rec().end();
    expect(c.getSnapshot()).toMatchObject({ recognizer: 'on-device', reconnecting: null });
    expect(rec()).toMatchObject({ processLocally: true, started: true });
    expect(c.store.text).toBe('hello');
  });

  it('without on-device recognition for the language, a network drop keeps the cloud recognizer (retries as before)', async () => {
    const c = makeController();
    c.setOnDeviceAvailable(false);
    await started(c);
    c.networkChanged(false);
    expect(c.getSnapshot().recognizer).toBe('cloud');
    rec().error('network');
    rec().end();
    expect(c.getSnapshot().reconnecting).toMatchObject({ attempt: 1 });
  });

  it.each(['service-not-allowed', 'language-not-supported'])('%s while private: paused with the text, and the cloud recognizer continues it', async (code) => {
    const c = makeController();
    c.setOnDeviceAvailable(true);
    c.setPrivate(true);
    await started(c);
    rec().final('before');
    rec().interim('pending');
    rec().error(code);
    expect(c.getSnapshot()).toMatchObject({ status: 'paused', onDeviceMissing: code });
    expect(notices).toEqual([]);
    expect(c.store.text).toBe('before pending');
    c.useCloud();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getSnapshot()).toMatchObject({ status: 'recording', privateMode: false, recognizer: 'cloud', onDeviceMissing: null });
    expect(rec()).toMatchObject({ processLocally: false, started: true });
    rec().final('after');
    expect(c.store.text).toBe('before pending after');
  });

  it('the same errors from the cloud recognizer stop the session as before', async () => {
    const c = makeController();
    await started(c);
    rec().final('words');
    rec().error('language-not-supported');
    expect(c.getSnapshot()).toMatchObject({ status: 'stopped', onDeviceMissing: null });
    expect(notices).toEqual([{ kind: 'error', code: 'language-not-supported' }]);
  });
});
