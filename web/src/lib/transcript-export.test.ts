import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { buildCues, buildSrt, buildTxt, buildVtt, CUE_LINE_MAX, exportFile, fileBaseName, formatCueTime, RLM } from './transcript-export';

const seg = (text: string, startMs: number, endMs: number): Segment => ({ text, startMs, endMs });

describe('formatCueTime', () => {
  it('prints HH:MM:SS,mmm and HH:MM:SS.mmm', () => {
    expect(formatCueTime(0, ',')).toBe('00:00:00,000');
    expect(formatCueTime(3_723_004, ',')).toBe('01:02:03,004');
    expect(formatCueTime(59_999, '.')).toBe('00:00:59.999');
  });

  it('never wraps hours', () => {
    expect(formatCueTime(100 * 3_600_000 + 1, ',')).toBe('100:00:00,001');
    expect(formatCueTime(25 * 3_600_000, '.')).toBe('25:00:00.000');
  });
});

describe('buildCues', () => {
  it('keeps short nearby segments in one cue and wraps lines at 42 characters', () => {
    const cues = buildCues({
      text: '',
      segments: [seg('hello there my friend', 0, 1500), seg('how are you doing on this fine morning today', 1600, 4000)],
    });
    expect(cues).toHaveLength(1);
    expect(cues[0]!.lines).toEqual(['hello there my friend how are you doing on', 'this fine morning today']);
    expect(cues[0]!.startMs).toBe(0);
    expect(cues[0]!.endMs).toBe(4000);
  });

  it('starts a new cue after more than 2 s of silence', () => {
    const cues = buildCues({ text: '', segments: [seg('first part', 0, 1000), seg('second part', 3001, 4000)] });
    expect(cues.map((c) => c.lines)).toEqual([['first part'], ['second part']]);
    expect(cues[1]!.startMs).toBe(3001);
  });

  it('does not split at exactly 2 s of silence', () => {
    const cues = buildCues({ text: '', segments: [seg('first part', 0, 1000), seg('second part', 3000, 4000)] });
    expect(cues).toHaveLength(1);
  });

  it('splits a long segment into cues of at most 2 lines, timed by characters', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${String(i).padStart(2, '0')}`); // 6 chars each
    const cues = buildCues({ text: '', segments: [seg(words.join(' '), 10_000, 50_000)] });
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(CUE_LINE_MAX);
    }
    expect(cues[0]!.startMs).toBe(10_000);
    expect(cues.at(-1)!.endMs).toBe(50_000);
    // 40 words of 6 chars: 6 per line, 12 per cue; the first cue holds 12/40 of the characters.
    expect(cues[0]!.lines).toEqual([words.slice(0, 6).join(' '), words.slice(6, 12).join(' ')]);
    expect(cues[0]!.endMs).toBe(10_000 + Math.round((40_000 * 12 * 6) / (40 * 6)));
    expect(cues[1]!.startMs).toBe(cues[0]!.endMs);
  });

  it('breaks Chinese, Japanese and Thai lines between words, though no space separates them', () => {
    const cases = [
      { language: 'zh-CN', text: '今天我们讨论语音识别技术的发展历史以及它在教育和医疗领域中的广泛应用和未来的挑战与机会' },
      { language: 'ja-JP', text: '今日は音声認識技術の発展の歴史と教育や医療の分野での幅広い応用そして将来の課題と機会について話し合います' },
      { language: 'th-TH', text: 'วันนี้เราจะพูดคุยเกี่ยวกับประวัติศาสตร์ของเทคโนโลยีการรู้จำเสียงพูดและการประยุกต์ใช้ในด้านการศึกษา' },
    ] as const;
    for (const { language, text } of cases) {
      const lines = buildCues({ text, language, segments: [seg(text, 0, 10_000)] }).flatMap((c) => c.lines);
      expect(lines.length, language).toBeGreaterThan(1);
      expect(lines.join(''), language).toBe(text);
      const words = new Intl.Segmenter(language, { granularity: 'word' });
      const characters = new Intl.Segmenter(language, { granularity: 'grapheme' });
      const boundaries = new Set(Array.from(words.segment(text), (w) => w.index));
      let at = 0;
      for (const line of lines) {
        expect(Array.from(characters.segment(line)).length, language).toBeLessThanOrEqual(CUE_LINE_MAX);
        // Every line starts where a word starts: none cuts a word.
        expect(boundaries.has(at), `${language}: ${line}`).toBe(true);
        at += line.length;
      }
    }
  });

  it('joins the segments of a language without spaces with nothing between them', () => {
    const cues = buildCues({ text: '', language: 'ja-JP', segments: [seg('今日は', 0, 1000), seg('良い天気ですね。', 1000, 2000)] });
    expect(cues[0]!.lines).toEqual(['今日は良い天気ですね。']);
  });

  it('never cuts a character in two: an emoji with its skin tone, a Devanagari cluster', () => {
    const text = `${'👍🏽'.repeat(30)} ${'नमस्ते'.repeat(20)}`;
    const lines = buildCues({ text, language: 'hi-IN', segments: [seg(text, 0, 5000)] }).flatMap((c) => c.lines);
    const graphemes = (line: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line), (g) => g.segment);
    expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
    for (const line of lines) {
      expect(graphemes(line).length).toBeLessThanOrEqual(CUE_LINE_MAX);
      expect(graphemes(line).every((g) => g === '👍🏽' || !g.includes('\u{1f3fd}'))).toBe(true);
      expect(/^[\u093e-\u094d]/u.test(line), line).toBe(false);
    }
  });

  it('keeps Latin words whole inside Chinese text', () => {
    const text = '我用 iPhone 手机录音';
    const cues = buildCues({ text, language: 'zh-CN', segments: [seg(text, 0, 2000)] });
    expect(cues[0]!.lines).toEqual(['我用 iPhone 手机录音']);
  });

  it('cuts a word longer than a line', () => {
    const url = `https://example.com/${'a'.repeat(60)}`;
    const lines = buildCues({ text: url, segments: [seg(url, 0, 1000)] }).flatMap((c) => c.lines);
    expect(lines.every((l) => l.length <= CUE_LINE_MAX)).toBe(true);
    expect(lines.join('')).toBe(url);
  });

  it('counts characters as a reader does (emoji, accents)', () => {
    const text = `${'😀'.repeat(42)} é`;
    const cues = buildCues({ text, segments: [seg(text, 0, 1000)] });
    expect(cues[0]!.lines[0]).toBe('😀'.repeat(42));
  });

  it('skips blank segments and never overlaps cues', () => {
    const cues = buildCues({ text: '', segments: [seg('a', 0, 0), seg('  ', 10, 20), seg('b', 0, 0)] });
    expect(cues).toHaveLength(1);
    const separate = buildCues({ text: '', segments: [seg('one', 0, 100), seg('two', 5000, 5000), seg('three', 4000, 4500)] });
    for (let i = 1; i < separate.length; i++) expect(separate[i]!.startMs).toBeGreaterThanOrEqual(separate[i - 1]!.endMs);
  });

  it('times text without segments at a normal speech rate', () => {
    const cues = buildCues({ text: 'old transcript without timing', segments: [] });
    expect(cues).toHaveLength(1);
    expect(cues[0]!.endMs).toBeGreaterThan(0);
    expect(buildCues({ text: '   ', segments: [] })).toEqual([]);
  });

  it('property: every word appears once, in order; limits and time order hold', () => {
    const word = fc.stringMatching(/^[a-zà-öø-ü]{1,50}$/);
    const segmentArb = fc.record({ words: fc.array(word, { minLength: 1, maxLength: 30 }), gap: fc.nat(5000), len: fc.nat(20_000) });
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 20 }), (specs) => {
        let t = 0;
        const segments = specs.map(({ words, gap, len }) => {
          const s = seg(words.join(' '), t + gap, t + gap + len);
          t = s.endMs;
          return s;
        });
        const cues = buildCues({ text: '', segments });
        const out = cues.flatMap((c) => c.lines.join(' ').split(' '));
        const expected = specs.flatMap((s) => s.words).flatMap((w) => (w.length > CUE_LINE_MAX ? [w.slice(0, CUE_LINE_MAX), w.slice(CUE_LINE_MAX)] : [w]));
        expect(out).toEqual(expected);
        for (const [i, cue] of cues.entries()) {
          expect(cue.lines.length).toBeGreaterThanOrEqual(1);
          expect(cue.lines.length).toBeLessThanOrEqual(2);
          for (const line of cue.lines) expect(Array.from(line).length).toBeLessThanOrEqual(CUE_LINE_MAX);
          expect(cue.endMs).toBeGreaterThanOrEqual(cue.startMs);
          if (i > 0) expect(cue.startMs).toBeGreaterThanOrEqual(cues[i - 1]!.endMs);
        }
      }),
    );
  });
});

describe('paragraphs and punctuation', () => {
  const segments = [seg('we begin', 0, 1000), seg(', slowly.', 1000, 1500), seg('\n\nNext part\nwith a line', 1600, 3000)];
  const text = 'we begin, slowly.\n\nNext part\nwith a line';

  it('TXT keeps paragraphs and line breaks, from the text or joined from the segments', () => {
    expect(buildTxt({ text, segments })).toBe(`${text}\n`);
    expect(buildTxt({ text: '', segments })).toBe(`${text}\n`);
  });

  it('SRT and VTT cues treat breaks as spaces, and punctuation joins the word before', () => {
    expect(buildCues({ text, segments }).map((c) => c.lines.join(' '))).toEqual(['we begin, slowly. Next part with a line']);
    expect(buildVtt({ text, segments })).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nwe begin, slowly. Next part with a line\n');
  });
});

describe('file builders', () => {
  const t = { text: 'Hello world. <b>Fish</b> & chips --> here', segments: [seg('Hello world.', 1000, 2500), seg('<b>Fish</b> & chips --> here', 6000, 7000)] };

  it('TXT is the text with a final newline', () => {
    expect(buildTxt(t)).toBe('Hello world. <b>Fish</b> & chips --> here\n');
    expect(buildTxt({ text: '', segments: [seg('a', 0, 1), seg('b', 1, 2)] })).toBe('a b\n');
    expect(buildTxt({ text: '', segments: [seg('你好', 0, 1), seg('世界', 1, 2)], language: 'zh-CN' })).toBe('你好世界\n');
    expect(buildTxt({ text: '', segments: [] })).toBe('');
  });

  it('SRT numbers cues with comma times', () => {
    expect(buildSrt(t)).toBe(
      '1\n00:00:01,000 --> 00:00:02,500\nHello world.\n\n2\n00:00:06,000 --> 00:00:07,000\n<b>Fish</b> & chips --> here\n',
    );
  });

  it('VTT starts with WEBVTT, uses dot times and escapes markup', () => {
    const vtt = buildVtt(t);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello world.\n\n00:00:06.000 --> 00:00:07.000\n&lt;b&gt;Fish&lt;/b&gt; &amp; chips --&gt; here\n',
    );
    expect(buildVtt({ text: '', segments: [] })).toBe('WEBVTT\n');
  });
});

describe('right-to-left transcripts', () => {
  const text = 'مرحبا بكم.\niPhone جديد في السوق.';
  const segments = [seg('مرحبا بكم.', 0, 1000), seg('iPhone جديد في السوق.', 5000, 6000)];

  it('SRT and VTT start every line with a RIGHT-TO-LEFT MARK, so players read it right to left', () => {
    expect(buildSrt({ text, segments, language: 'ar-SA' })).toBe(
      `1\n00:00:00,000 --> 00:00:01,000\n${RLM}مرحبا بكم.\n\n2\n00:00:05,000 --> 00:00:06,000\n${RLM}iPhone جديد في السوق.\n`,
    );
    const vtt = buildVtt({ text, segments, language: 'fa-IR' });
    expect(vtt.split('\n').filter((l) => /\p{L}/u.test(l) && l !== 'WEBVTT')).toEqual([`${RLM}مرحبا بكم.`, `${RLM}iPhone جديد في السوق.`]);
  });

  it('TXT marks only the lines that start with a left-to-right word', () => {
    expect(buildTxt({ text, segments, language: 'he-IL' })).toBe(`مرحبا بكم.\n${RLM}iPhone جديد في السوق.\n`);
  });

  it('a left-to-right transcript has no marks', () => {
    expect(buildSrt({ text: 'iPhone', segments: [seg('iPhone', 0, 1000)], language: 'en-US' })).not.toContain(RLM);
    expect(buildTxt({ text: 'مرحبا', segments: [], language: 'en-US' })).not.toContain(RLM);
  });

  it('breaks an Arabic line between words, punctuation kept with its word', () => {
    const long = 'بدأنا الاجتماع في الساعة التاسعة صباحا، وحضر جميع أعضاء الفريق الجدد والقدامى.';
    const lines = buildCues({ text: long, language: 'ar-SA', segments: [seg(long, 0, 5000)] }).flatMap((c) => c.lines);
    expect(lines.join(' ')).toBe(long);
    expect(lines.every((l) => !/^[،.]/u.test(l))).toBe(true);
  });
});

describe('exportFile', () => {
  it('downloads a named Blob through an object URL', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = (b: Blob) => {
      created.push(b);
      return 'blob:test';
    };
    URL.revokeObjectURL = () => undefined;
    let clicked: HTMLAnchorElement | undefined;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- records which link the export clicked
      clicked = this;
    };
    await exportFile('srt', { text: 'hi', segments: [seg('hi', 0, 1000)], title: 'Aula', createdAt: '2025-03-10T12:00:00.000Z', uiLanguage: 'en' }, 'Aula: 1/2');
    expect(clicked?.download).toBe('Aula 1 2.srt');
    expect(clicked?.href).toBe('blob:test');
    expect(created[0]!.type).toBe('application/x-subrip;charset=utf-8');
    expect(await created[0]!.text()).toBe('1\n00:00:00,000 --> 00:00:01,000\nhi\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('file names are safe and never empty', () => {
    expect(fileBaseName('  ../..  ')).toBe('transcript');
    expect(fileBaseName('a'.repeat(200))).toHaveLength(80);
  });
});
