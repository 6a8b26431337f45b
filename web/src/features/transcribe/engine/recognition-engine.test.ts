import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { RecognitionEngine } from './recognition-engine';
import { getOnDeviceRecognition } from './on-device';
import { FakeRecognition } from './testing/fake-recognition';

let clock = 0;
let finals: Segment[];
let interims: string[];
let fatals: string[];
let retries: Array<[number, number, number]>;

function makeEngine(options: Partial<ConstructorParameters<typeof RecognitionEngine>[0]> = {}) {
  return new RecognitionEngine({
    Recognition: FakeRecognition,
    now: () => clock,
    listener: {
      onFinal: (s) => finals.push(s),
      onInterim: (t) => interims.push(t),
      onFatal: (c) => fatals.push(c),
      onRetry: (a, m, d) => retries.push([a, m, d]),
    },
    ...options,
  });
}

/** Advances the session clock and the timers together. */
async function tick(ms: number) {
  clock += ms;
  await vi.advanceTimersByTimeAsync(ms);
}

const texts = () => finals.map((s) => s.text);
const rec = () => FakeRecognition.current;
const count = () => FakeRecognition.instances.length;

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.reset();
  clock = 1_000_000;
  finals = [];
  interims = [];
  fatals = [];
  retries = [];
});

afterEach(() => FakeRecognition.reset());

describe('RecognitionEngine: basics', () => {
  it('uses the standard interface with continuous interim results in the chosen language', () => {
    const engine = makeEngine();
    engine.start('pt-BR');
    expect(rec()).toMatchObject({ lang: 'pt-BR', continuous: true, interimResults: true, started: true });
    expect(engine.currentState).toBe('listening');
  });

  it('shows interim text, then commits the final with its times on the session clock', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    await tick(500);
    rec().interim('hello');
    await tick(700);
    rec().interim('hello wor');
    await tick(300);
    rec().final('hello world');
    expect(interims).toEqual(['hello', 'hello wor', '']);
    expect(finals).toEqual([{ text: 'hello world', startMs: 500, endMs: 1500 }]);
    expect(engine.elapsedMs()).toBe(1500);
  });

  it('reads results from resultIndex: earlier finals sent again are not repeated', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('one');
    await tick(100);
    rec().interim('two');
    // Chrome sends the whole list; only index 1 changed.
    rec().dispatch(1, [
      { transcript: 'one', isFinal: true, confidence: 0.9 },
      { transcript: 'two', isFinal: true, confidence: 0.9 },
    ]);
    // The same list again from index 0.
    rec().dispatch(0, [
      { transcript: 'one', isFinal: true, confidence: 0.9 },
      { transcript: 'two', isFinal: true, confidence: 0.9 },
    ]);
    expect(texts()).toEqual(['one', 'two']);
  });

  it('ignores results before resultIndex even if they look new', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().dispatch(1, [
      { transcript: 'stale', isFinal: false },
      { transcript: 'fresh', isFinal: true, confidence: 0.9 },
    ]);
    expect(texts()).toEqual(['fresh']);
    expect(interims).toEqual([]);
  });

  it('joins several interim results in order', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().dispatch(0, [
      { transcript: 'good', isFinal: false },
      { transcript: ' morning', isFinal: false },
    ]);
    expect(interims.at(-1)).toBe('good morning');
  });

  it('a constructor or start() that throws is fatal', () => {
    const Broken = class extends FakeRecognition {
      override start(): void {
        throw new Error('boom');
      }
    };
    const engine = makeEngine({ Recognition: Broken });
    engine.start('en-US');
    expect(fatals).toEqual(['start-failed']);
    expect(engine.currentState).toBe('idle');
  });
});

describe('RecognitionEngine: sessions that end by themselves', () => {
  it('starts the next recognizer inside the end handler (no gap), committing pending interim text first', () => {
    const engine = makeEngine();
    engine.start('en-US');
    const first = rec();
    rec().interim('unfinished thought');
    rec().end();
    expect(texts()).toEqual(['unfinished thought']);
    expect(interims.at(-1)).toBe('');
    // No timer ran: start() was called while the first recognizer's end event was dispatched.
    expect(count()).toBe(2);
    expect(rec().startedDuringEndOf).toBe(first);
    expect(vi.getTimerCount()).toBe(0);
    expect(rec()).toMatchObject({ started: true, lang: 'en-US', continuous: true, interimResults: true });
    expect(engine.currentState).toBe('listening');
    // The new recognizer's first result is index 0 again.
    rec().final('next');
    expect(texts()).toEqual(['unfinished thought', 'next']);
  });

  it('events from an ended recognizer are ignored', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    const first = rec();
    first.end();
    await tick(200);
    first.final('ghost');
    first.end();
    expect(texts()).toEqual([]);
    expect(count()).toBe(2);
  });

  for (const code of ['no-speech', 'aborted', 'network']) {
    it(`restarts after "${code}", from end and never from onerror`, async () => {
      const engine = makeEngine();
      engine.start('en-US');
      rec().error(code);
      await tick(10_000);
      expect(count()).toBe(1);
      rec().end();
      await tick(code === 'network' ? 500 : 200);
      expect(count()).toBe(2);
      expect(fatals).toEqual([]);
      expect(engine.currentState).toBe('listening');
    });
  }

  it('restarts at once after a no-speech that follows speech; repeated empty recognizers back off', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('said something');
    await tick(8000);
    rec().error('no-speech');
    rec().end();
    expect(count()).toBe(2);
    // The first empty recognizer restarts at once too (a silence that ended a session).
    rec().error('no-speech');
    rec().end();
    expect(count()).toBe(3);
    // Empty again: 200 ms, every time, until a result.
    for (const n of [4, 5]) {
      rec().error('no-speech');
      rec().end();
      expect(count()).toBe(n - 1);
      await tick(199);
      expect(count()).toBe(n - 1);
      await tick(1);
      expect(count()).toBe(n);
      expect(rec().startedDuringEndOf).toBeNull();
    }
    rec().interim('back');
    rec().end();
    expect(count()).toBe(6);
    expect(texts()).toEqual(['said something', 'back']);
    expect(fatals).toEqual([]);
  });

  it('a recognizer that aborts at once, again and again, never spins', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().error('aborted');
    rec().end();
    expect(count()).toBe(2);
    // From the second empty recognizer in a row on, each restart waits its 200 ms.
    for (let n = 3; n <= 10; n++) {
      rec().error('aborted');
      rec().end();
      expect(count()).toBe(n - 1);
      await tick(200);
      expect(count()).toBe(n);
    }
    expect(fatals).toEqual([]);
  });

  it('a start() that throws InvalidStateError inside end is tried again in the next task, keeping the text', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().interim('nothing is lost');
    FakeRecognition.busyStarts = 1;
    rec().end();
    expect(texts()).toEqual(['nothing is lost']);
    expect(fatals).toEqual([]);
    expect(engine.currentState).toBe('listening');
    expect(count()).toBe(2);
    expect(rec().started).toBe(false);
    await tick(0);
    expect(count()).toBe(3);
    expect(rec().started).toBe(true);
    rec().final('next words');
    expect(texts()).toEqual(['nothing is lost', 'next words']);
  });

  it('a start() still busy in the next task waits 200 ms, then gives up as start-failed', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('kept');
    FakeRecognition.busyStarts = 2;
    rec().end();
    await tick(0);
    expect(count()).toBe(3);
    await tick(199);
    expect(count()).toBe(3);
    await tick(1);
    expect(count()).toBe(4);
    expect(rec().started).toBe(true);
    expect(fatals).toEqual([]);

    FakeRecognition.busyStarts = 3;
    rec().end();
    await tick(200);
    expect(fatals).toEqual(['start-failed']);
    expect(engine.currentState).toBe('idle');
    expect(texts()).toEqual(['kept']);
  });

  it('stop() while a busy start waits for its retry resolves at once and starts nothing', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    FakeRecognition.busyStarts = 1;
    rec().end();
    await engine.stop();
    await tick(1000);
    expect(count()).toBe(2);
    expect(engine.currentState).toBe('idle');
  });

  it('network: backs off exponentially, then gives up into a clear idle state', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().interim('kept');
    const delays = [500, 1000, 2000, 4000, 8000];
    for (const [i, delay] of delays.entries()) {
      rec().error('network');
      rec().end();
      await tick(delay - 1);
      expect(count()).toBe(i + 1);
      await tick(1);
      expect(count()).toBe(i + 2);
    }
    expect(retries.map((r) => r[2])).toEqual(delays);
    rec().error('network');
    rec().end();
    await tick(60_000);
    expect(count()).toBe(delays.length + 1);
    expect(fatals).toEqual(['network']);
    expect(engine.currentState).toBe('idle');
    expect(texts()).toEqual(['kept']);
  });

  it('network: a result resets the retry count', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().error('network');
    rec().end();
    await tick(500);
    rec().error('network');
    rec().end();
    await tick(1000);
    rec().final('back online');
    rec().error('network');
    rec().end();
    expect(retries.at(-1)).toEqual([1, 5, 500]);
  });

  for (const code of ['audio-capture', 'not-allowed', 'service-not-allowed', 'language-not-supported', 'bad-grammar', 'something-new']) {
    it(`"${code}" stops the session, keeps pending text and never restarts`, async () => {
      const engine = makeEngine();
      engine.start('en-US');
      rec().interim('last words');
      rec().error(code);
      expect(fatals).toEqual([code]);
      expect(texts()).toEqual(['last words']);
      expect(engine.currentState).toBe('idle');
      rec().end();
      await tick(10_000);
      expect(count()).toBe(1);
    });
  }

  it('our own abort is not an error and does not restart', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    engine.abort();
    await tick(1000);
    expect(rec().abortCalls).toBe(1);
    expect(count()).toBe(1);
    expect(fatals).toEqual([]);
    expect(engine.currentState).toBe('idle');
  });
});

describe('RecognitionEngine: stop and pause', () => {
  it('stop() keeps listening for the last final result, which arrives before end', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().interim('the last sen');
    let done = false;
    const stopped = engine.stop().then(() => (done = true));
    expect(rec().stopCalls).toBe(1);
    expect(engine.currentState).toBe('stopping');
    await tick(300);
    expect(done).toBe(false);
    rec().final('the last sentence');
    expect(texts()).toEqual(['the last sentence']);
    rec().end();
    await stopped;
    expect(engine.currentState).toBe('idle');
    await tick(1000);
    expect(count()).toBe(1);
  });

  it('stop() commits interim text that never became final', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().interim('almost');
    const stopped = engine.stop();
    rec().end();
    await stopped;
    expect(texts()).toEqual(['almost']);
  });

  it('stop() gives up on a recognizer that never ends', async () => {
    const engine = makeEngine({ stopTimeoutMs: 3000 });
    engine.start('en-US');
    rec().interim('stuck');
    const stopped = engine.stop();
    await tick(3000);
    await stopped;
    expect(rec().abortCalls).toBe(1);
    expect(texts()).toEqual(['stuck']);
    expect(engine.currentState).toBe('idle');
  });

  it('stop() between two recognizers resolves at once', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    // Two empty recognizers in a row: the next one waits RECOGNITION_RESTART_MS.
    rec().error('no-speech');
    rec().end();
    rec().error('no-speech');
    rec().end();
    expect(count()).toBe(2);
    await engine.stop();
    await tick(1000);
    expect(count()).toBe(2);
    expect(engine.currentState).toBe('idle');
  });

  it('pause holds the clock; resume starts a new recognizer; segment times exclude the pause', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    await tick(1000);
    rec().interim('first');
    await tick(1000);
    rec().final('first part');
    const paused = engine.pause();
    rec().end();
    await paused;
    expect(engine.currentState).toBe('paused');
    await tick(60_000);
    expect(engine.elapsedMs()).toBe(2000);
    engine.resume();
    expect(count()).toBe(2);
    await tick(500);
    rec().interim('second');
    await tick(1500);
    rec().final('second part');
    // A restart in between: the clock keeps running.
    rec().end();
    await tick(200);
    await tick(300);
    rec().final('third');
    expect(finals).toEqual([
      { text: 'first part', startMs: 1000, endMs: 2000 },
      { text: 'second part', startMs: 2500, endMs: 4000 },
      { text: 'third', startMs: 4200, endMs: 4500 },
    ]);
  });

  it('a final that arrives without interim results is dated back by its length, never before the previous one', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    await tick(10_000);
    rec().final('twenty characters ok'); // 20 chars ≈ 1.2 s
    await tick(100);
    rec().final('a much longer sentence that would reach back before the previous one');
    expect(finals[0]).toEqual({ text: 'twenty characters ok', startMs: 8800, endMs: 10_000 });
    expect(finals[1]!.startMs).toBe(10_000);
    expect(finals[1]!.endMs).toBe(10_100);
  });

  it('resume while a pause is finishing waits for the old recognizer', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    void engine.pause();
    engine.resume();
    expect(count()).toBe(1);
    rec().final('late final');
    rec().end();
    expect(count()).toBe(2);
    expect(engine.currentState).toBe('listening');
    expect(texts()).toEqual(['late final']);
  });

  it('start() drops the previous session', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    await tick(5000);
    const old = rec();
    engine.start('es-ES');
    old.final('from before');
    expect(texts()).toEqual([]);
    expect(engine.elapsedMs()).toBe(0);
    expect(rec().lang).toBe('es-ES');
  });

  it('start() with an offset continues a restored session clock', async () => {
    const engine = makeEngine();
    engine.start('en-US', 90_000);
    rec().interim('mo');
    await tick(1000);
    rec().final('more');
    expect(finals[0]).toEqual({ text: 'more', startMs: 90_000, endMs: 91_000 });
  });
});

describe('RecognitionEngine: Android Chrome', () => {
  it('a final with confidence 0 is interim until the real final arrives', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().emit(0, [{ transcript: 'hello', isFinal: true, confidence: 0 }]);
    expect(texts()).toEqual([]);
    expect(interims.at(-1)).toBe('hello');
    rec().emit(0, [{ transcript: 'hello there', isFinal: true, confidence: 0.8 }]);
    expect(texts()).toEqual(['hello there']);
  });

  it('confidence-0 finals left at end are committed, once', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().emit(0, [{ transcript: 'pending words', isFinal: true, confidence: 0 }]);
    rec().end();
    expect(texts()).toEqual(['pending words']);
  });

  it('cumulative finals in one list keep only the new words', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().emit(0, [{ transcript: 'hello', isFinal: true }]);
    rec().emit(1, [{ transcript: 'hello world', isFinal: true }]);
    rec().emit(2, [{ transcript: 'Hello world, how are you?', isFinal: true }]);
    expect(texts()).toEqual(['hello', 'world', 'how are you?']);
  });

  it('a rebuilt list that reuses index 0 for new speech is not lost', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().dispatch(0, [{ transcript: 'first phrase', isFinal: true, confidence: 0.9 }]);
    rec().dispatch(0, [{ transcript: 'first phrase', isFinal: true, confidence: 0.9 }]);
    rec().dispatch(0, [{ transcript: 'second', isFinal: false }]);
    rec().dispatch(0, [{ transcript: 'second phrase', isFinal: true, confidence: 0.9 }]);
    expect(texts()).toEqual(['first phrase', 'second phrase']);
  });

  it('a final repeated at the next index is dropped', () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().emit(0, [{ transcript: 'see you tomorrow', isFinal: true }]);
    rec().emit(1, [{ transcript: 'See you tomorrow.', isFinal: true }]);
    expect(texts()).toEqual(['see you tomorrow']);
  });

  it('the last final repeated by the next recognizer after a restart is dropped', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('the meeting starts now');
    rec().end();
    await tick(200);
    rec().final('the meeting starts now');
    rec().final('the meeting starts now and ends at noon');
    expect(texts()).toEqual(['the meeting starts now', 'and ends at noon']);
  });

  it('the same words said again later are kept', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('yes');
    await tick(5000);
    rec().final('yes');
    expect(texts()).toEqual(['yes', 'yes']);
  });

  it('Chinese cumulative finals are compared by characters', () => {
    const engine = makeEngine();
    engine.start('zh-CN');
    rec().emit(0, [{ transcript: '你好', isFinal: true }]);
    rec().emit(1, [{ transcript: '你好世界', isFinal: true }]);
    expect(texts()).toEqual(['你好', '世界']);
  });
});

describe('RecognitionEngine: on-device recognition', () => {
  it('asks each recognizer for processLocally when told to, and not otherwise', async () => {
    const engine = makeEngine({ processLocally: true });
    engine.start('en-US');
    expect(rec().processLocally).toBe(true);
    expect(engine.local).toBe(true);
    const cloud = makeEngine();
    cloud.start('en-US');
    expect(rec().processLocally).toBe(false);
  });

  it('switches recognizers mid-session: interim text committed once, the old recognizer ignored, the new one started at once', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().final('one');
    rec().interim('two');
    const old = rec();
    engine.setProcessLocally(true);
    expect(count()).toBe(2);
    expect(rec()).toMatchObject({ processLocally: true, started: true });
    expect(old.abortCalls).toBe(1);
    // The old recognizer's late final and its abort end change nothing.
    old.final('two');
    await tick(10);
    rec().final('three');
    engine.setProcessLocally(false);
    expect(rec().processLocally).toBe(false);
    rec().final('four');
    expect(texts()).toEqual(['one', 'two', 'three', 'four']);
    expect(count()).toBe(3);
    expect(fatals).toEqual([]);
  });

  it('a switch during a network back-off starts the other recognizer at once', async () => {
    const engine = makeEngine();
    engine.start('en-US');
    rec().interim('hello there');
    rec().error('network');
    rec().end();
    expect(retries).toHaveLength(1);
    engine.setProcessLocally(true);
    expect(count()).toBe(2);
    expect(rec().processLocally).toBe(true);
    await tick(10_000);
    expect(count()).toBe(2);
    expect(texts()).toEqual(['hello there']);
  });

  it('while paused, a switch applies to the next recognizer', async () => {
    FakeRecognition.autoEndOnStop = true;
    const engine = makeEngine();
    engine.start('en-US');
    await engine.pause();
    engine.setProcessLocally(true);
    expect(count()).toBe(1);
    engine.resume();
    expect(rec().processLocally).toBe(true);
  });

  it.each(['service-not-allowed', 'language-not-supported'])('%s from an on-device recognizer ends the session, keeping what was heard', (code) => {
    const engine = makeEngine({ processLocally: true });
    engine.start('en-US');
    rec().interim('kept words');
    rec().error(code);
    expect(texts()).toEqual(['kept words']);
    expect(fatals).toEqual([code]);
    expect(engine.currentState).toBe('idle');
  });
});

describe('on-device availability (the draft statics, feature-detected)', () => {
  it('is absent when the recognizer has no available/install', () => {
    class Plain {}
    expect(getOnDeviceRecognition(Plain as never)).toBeUndefined();
    expect(getOnDeviceRecognition(undefined)).toBeUndefined();
  });

  it('answers per language; install moves a downloadable pack to available and resolves true', async () => {
    FakeRecognition.packs.set('en-US', 'downloadable');
    const onDevice = getOnDeviceRecognition(FakeRecognition)!;
    expect(await onDevice.available({ langs: ['en-US'], processLocally: true })).toBe('downloadable');
    expect(await onDevice.available({ langs: ['he-IL'], processLocally: true })).toBe('unavailable');
    const installed = onDevice.install({ langs: ['en-US'], processLocally: true });
    expect(await onDevice.available({ langs: ['en-US'], processLocally: true })).toBe('downloading');
    await vi.advanceTimersByTimeAsync(0);
    expect(await installed).toBe(true);
    expect(await onDevice.available({ langs: ['en-US'], processLocally: true })).toBe('available');
    const refused = onDevice.install({ langs: ['he-IL'] });
    await vi.advanceTimersByTimeAsync(0);
    expect(await refused).toBe(false);
  });
});
