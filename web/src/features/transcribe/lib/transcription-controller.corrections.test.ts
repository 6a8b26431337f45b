import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecognitionLanguage } from '@app/shared/constants';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { RecognitionEngine } from '../engine/recognition-engine';
import { FakeRecognition } from '../engine/testing/fake-recognition';
import type { RecoveryStore } from './recovery';
import { TranscriptionController } from './transcription-controller';

/** The pipeline from recognition result to transcript: corrections and paragraphs, on a fake clock. */

let clock = 0;
let appended: string[];
let wordLoads: string[];

const recovery = (): RecoveryStore => ({
  begin: () => undefined,
  adopt: () => undefined,
  append: (s) => appended.push(s.text),
  setDuration: () => undefined,
  flush: async () => undefined,
  flushSync: () => undefined,
  pageShown: () => undefined,
  discard: () => undefined,
  detach: () => undefined,
  load: async () => null,
});

function makeController(language: RecognitionLanguage = 'en-US') {
  return new TranscriptionController({
    Recognition: FakeRecognition,
    loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: recovery }),
    notify: () => undefined,
    limitMs: () => null,
    owner: () => null,
    now: () => clock,
    language,
    loadWords: async (lang) => {
      wordLoads.push(lang);
      return ['damn', 'bloody hell'];
    },
  });
}

const settings = (patch: Partial<CorrectionSettings> = {}): CorrectionSettings => ({ ...DEFAULT_CORRECTIONS, paragraphSilence: null, ...patch });

async function tick(ms: number) {
  clock += ms;
  await vi.advanceTimersByTimeAsync(ms);
}

async function started(c: TranscriptionController) {
  c.start();
  // The corrections' code loads on first use (a dynamic import: not a timer).
  await c.corrections.ready;
  await vi.advanceTimersByTimeAsync(0);
  expect(FakeRecognition.instances.length).toBeGreaterThan(0);
}

const rec = () => FakeRecognition.current;

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
  clock = 0;
  appended = [];
  wordLoads = [];
});
afterEach(() => FakeRecognition.reset());

describe('results pass through the corrections before they reach the transcript', () => {
  it('corrects finals and interims alike (commands, then replacements, then the mask), for the store and its device copy', async () => {
    const c = makeController();
    c.setCorrections(
      settings({ voiceCommands: true, profanity: 'mask', replacements: [{ phrase: 'gonna', replacement: 'going to' }, { phrase: 'comma', replacement: 'NO' }] }),
    );
    await started(c);
    expect(wordLoads).toEqual(['en-US']);
    rec().interim('we are gonna win damn');
    expect(c.store.interim).toBe('we are going to win d***');
    rec().final('we are gonna win damn comma right');
    // The command ran before the replacements: "comma" became punctuation, not "NO".
    expect(c.store.text).toBe('we are going to win d***, right');
    expect(appended).toEqual(['we are going to win d***, right']);
    rec().final('Bloody   Hell full stop');
    expect(c.store.text).toBe('we are going to win d***, right B***** ****.');
  });

  it("waits for a signed-in user's settings still loading before it listens, so the first result is corrected", async () => {
    const c = makeController();
    c.setCorrections(null);
    c.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeRecognition.instances).toHaveLength(0);
    c.setCorrections(settings({ replacements: [{ phrase: 'gonna', replacement: 'going to' }] }));
    await c.corrections.ready;
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances).toHaveLength(1);
    rec().final('we are gonna win');
    expect(c.store.text).toBe('we are going to win');
  });

  it('starts with the defaults when the settings do not come (offline) within a moment and a half', async () => {
    const c = makeController();
    c.setCorrections(null);
    c.start();
    await vi.advanceTimersByTimeAsync(1_499);
    expect(FakeRecognition.instances).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeRecognition.instances).toHaveLength(1);
    rec().final('we are gonna win');
    expect(c.store.text).toBe('we are gonna win');
  });

  it('hides profanity in hide mode, leaving no double spaces', async () => {
    const c = makeController();
    c.setCorrections(settings({ profanity: 'hide' }));
    await started(c);
    rec().final('oh damn it');
    expect(c.store.text).toBe('oh it');
  });

  it('joins a result that starts with punctuation to the text before without a space', async () => {
    const c = makeController();
    c.setCorrections(settings({ voiceCommands: true }));
    await started(c);
    rec().final('hello');
    rec().final('comma how are you question mark');
    rec().final('new paragraph fine');
    expect(c.store.text).toBe('hello, how are you?\n\nFine');
  });

  it('starts a paragraph after the configured silence, on a fake clock (never before punctuation)', async () => {
    const c = makeController();
    c.setCorrections(settings({ paragraphSilence: 2, voiceCommands: true }));
    await started(c);
    await tick(500);
    rec().interim('one');
    await tick(500);
    rec().final('one');
    await tick(1900);
    rec().interim('two');
    await tick(300);
    rec().final('two');
    await tick(2500);
    rec().interim('three');
    await tick(300);
    rec().final('three');
    await tick(3000);
    rec().interim('comma');
    await tick(300);
    rec().final('comma four');
    const [one, two, three] = c.store.segments;
    expect(two!.startMs - one!.endMs).toBeLessThan(2000);
    expect(c.store.segments[2]!.startMs - two!.endMs).toBeGreaterThanOrEqual(2000);
    expect(three!.text).toBe('\n\nthree');
    expect(c.store.text).toBe('one two\n\nthree, four');
    // The view shows the paragraph as a block of its own.
    expect(c.store.getChapters()[0]!.blocks.map((b) => b.text)).toEqual(['one two', '\n\nthree, four']);
  });

  it('no paragraphs by silence when turned off', async () => {
    const c = makeController();
    c.setCorrections(settings({ paragraphSilence: null }));
    await started(c);
    rec().final('one');
    await tick(30_000);
    rec().final('two');
    expect(c.store.text).toBe('one two');
  });

  it('compiles the lists once per change of settings, never per result, and loads a word list only with a mask on', async () => {
    const c = makeController();
    const plain = settings({ replacements: Array.from({ length: 200 }, (_, i) => ({ phrase: `w${i}`, replacement: `W${i}` })) });
    c.setCorrections(plain);
    await started(c);
    const compiles = c.corrections.compiles;
    for (let i = 0; i < 50; i++) {
      rec().interim(`w${i}`);
      rec().final(`w${i} w${i + 1}`);
    }
    expect(c.corrections.compiles).toBe(compiles);
    expect(c.store.segments.at(-1)!.text).toBe('W49 W50');
    expect(wordLoads).toEqual([]);
    // The same settings again: nothing compiled; new ones: compiled again.
    c.setCorrections(plain);
    expect(c.corrections.compiles).toBe(compiles);
    c.setCorrections({ ...plain, replacements: [] });
    expect(c.corrections.compiles).toBe(compiles + 1);
    rec().final('w1');
    expect(c.store.segments.at(-1)!.text).toBe('w1');
  });

  it('waits for the word list before listening when a mask is on, so the first words are masked too', async () => {
    let release!: (words: string[]) => void;
    const controller = new TranscriptionController({
      Recognition: FakeRecognition,
      loadRuntime: async () => ({ RecognitionEngine, createRecoveryStore: recovery }),
      notify: () => undefined,
      limitMs: () => null,
      owner: () => null,
      now: () => clock,
      language: 'pt-BR',
      loadWords: () => new Promise((resolve) => (release = resolve)),
    });
    controller.setCorrections(settings({ profanity: 'mask' }));
    controller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances).toHaveLength(0);
    release(['merda']);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances).toHaveLength(1);
    rec().final('que merda');
    expect(controller.store.text).toBe('que m****');
  });
});
