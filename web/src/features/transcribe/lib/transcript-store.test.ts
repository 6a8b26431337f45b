import { describe, expect, it } from 'vitest';
import { BLOCK_MAX, CHAPTER_MAX, TranscriptStore } from './transcript-store';

const seg = (text: string, startMs = 0, endMs = startMs + 500) => ({ text, startMs, endMs });

describe('TranscriptStore', () => {
  it('keeps a running text, the segments, and notifies finals and interim separately', () => {
    const store = new TranscriptStore();
    let finals = 0;
    let interims = 0;
    const appended: string[] = [];
    store.subscribe(() => finals++);
    store.subscribeInterim(() => interims++);
    store.onAppend((s) => appended.push(s.text));
    store.append(seg(' hello '));
    store.setInterim('wor');
    store.append(seg('world'));
    store.append(seg('   '));
    expect(store.text).toBe('hello world');
    expect(store.segments.map((s) => s.text)).toEqual(['hello', 'world']);
    expect([finals, interims]).toEqual([2, 1]);
    expect(appended).toEqual(['hello', 'world']);
  });

  it('an append replaces only the last block and the last chapter: everything else keeps its identity', () => {
    const store = new TranscriptStore();
    const count = BLOCK_MAX * CHAPTER_MAX + BLOCK_MAX + 3;
    for (let i = 0; i < count; i++) store.append(seg(`w${i}`, i * 1000));
    const before = store.getChapters();
    expect(before).toHaveLength(2);
    expect(before[0]!.blocks).toHaveLength(CHAPTER_MAX);
    store.append(seg('new', count * 1000));
    const after = store.getChapters();
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]!.blocks[0]).toBe(before[1]!.blocks[0]);
    expect(after[1]!.blocks[1]).not.toBe(before[1]!.blocks[1]);
    expect(after[1]!.blocks[1]!.segments.at(-1)!.text).toBe('new');
    expect(after[1]!.blocks[1]!.key).toBe(before[1]!.blocks[1]!.key);
  });

  it("starts a block at a paragraph of the text (a result opening or closing with a blank line), whatever the silence", () => {
    const store = new TranscriptStore();
    store.append(seg('a', 0, 1000));
    store.append(seg('b', 60_000, 61_000));
    store.append(seg('\n\nc', 62_000, 63_000));
    store.append(seg('d\n\n', 63_000, 64_000));
    store.append(seg('e', 64_000, 65_000));
    const blocks = store.getChapters()[0]!.blocks;
    expect(blocks.map((b) => b.segments.map((s) => s.text))).toEqual([['a', 'b'], ['\n\nc', 'd\n\n'], ['e']]);
    expect(blocks.map((b) => b.text)).toEqual(['a b', '\n\nc d\n\n', 'e']);
    expect(blocks[1]!.first).toBe(2);
    expect(store.text).toBe('a b\n\nc d\n\ne');
  });

  it('joins a result that starts with punctuation or a line break without a space, and keeps line breaks at its ends', () => {
    const store = new TranscriptStore();
    store.append(seg('  hello  '));
    store.append(seg(', world'));
    store.append(seg('.'));
    store.append(seg('\n'));
    store.append(seg('next line'));
    expect(store.text).toBe('hello, world.\nnext line');
    expect(store.textSource.slice(0)).toBe(store.text);
    expect(store.textSource.slice(6, 14)).toBe(' world.\n');
  });

  it('load() brings many segments at once; clear() empties everything', () => {
    const store = new TranscriptStore();
    store.setSeparator('');
    store.load([seg('你好'), seg(' '), seg('世界')]);
    expect(store.text).toBe('你好世界');
    expect(store.getChapters()[0]!.blocks[0]!.text).toBe('你好世界');
    expect(store.segments).toHaveLength(2);
    store.setInterim('x');
    store.clear();
    expect([store.text, store.interim, store.isEmpty, store.getChapters().length]).toEqual(['', '', true, 0]);
  });
});

describe('the running text as a TextSource', () => {
  it('reads every part exactly as slicing the text would, across separators, languages without spaces and clears', () => {
    const store = new TranscriptStore();
    const check = () => {
      const text = store.text;
      expect(store.textSource.length).toBe(text.length);
      for (let start = -3; start <= text.length + 1; start++) {
        expect(store.textSource.slice(start), `slice(${start})`).toBe(text.slice(start));
        for (let end = start; end <= text.length + 1; end += 3) expect(store.textSource.slice(start, end), `slice(${start}, ${end})`).toBe(text.slice(start, end));
      }
    };
    check();
    for (const [i, word] of ['olá', 'mundo', 'de', 'novo'].entries()) store.append({ text: word, startMs: i * 1000, endMs: i * 1000 + 500 });
    check();
    store.setSeparator('');
    store.append({ text: '你好', startMs: 5000, endMs: 5500 });
    store.append({ text: '世界', startMs: 6000, endMs: 6500 });
    check();
    store.clear();
    check();
    store.append({ text: 'again', startMs: 0, endMs: 1 });
    check();
  });
});
