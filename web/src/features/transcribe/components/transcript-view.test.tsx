import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BLOCK_MAX, CHAPTER_MAX, TranscriptStore } from '../lib/transcript-store';
import { SETTLE_BELOW_CHARS, TranscriptView } from './transcript-view';

describe('transcript view direction', () => {
  it('an Arabic transcript that starts with digits and Latin words is right to left, from the language', () => {
    const store = new TranscriptStore();
    store.append({ text: '2024 iPhone مرحبا بكم', startMs: 0, endMs: 900 });
    render(<TranscriptView store={store} language="ar-SA" status="recording" />);
    const region = screen.getByRole('region', { name: 'Transcript' });
    expect(region).toHaveAttribute('dir', 'rtl');
    expect(region).toHaveAttribute('lang', 'ar-SA');
    // Paragraphs inherit it: none of them guesses from its first strong character.
    expect(region.querySelector('[dir="auto"]')).toBeNull();
    expect(screen.getByText('2024 iPhone مرحبا بكم', { exact: false }).closest('[dir]')).toBe(region);
  });

  it('Hebrew is right to left too; English is left to right', () => {
    const store = new TranscriptStore();
    const { rerender } = render(<TranscriptView store={store} language="he-IL" status="ready" />);
    expect(screen.getByRole('region', { name: 'Transcript' })).toHaveAttribute('dir', 'rtl');
    rerender(<TranscriptView store={store} language="en-US" status="ready" />);
    expect(screen.getByRole('region', { name: 'Transcript' })).toHaveAttribute('dir', 'ltr');
  });
});

describe('transcript view cost', () => {
  const fill = (store: TranscriptStore, from: number, to: number) => {
    for (let i = from; i < to; i++) store.append({ text: `w${i} and more`, startMs: i * 1000, endMs: i * 1000 + 900 });
  };

  it('full chapters settle into one stable node each once enough text follows them; the whole text stays in the DOM, in order', () => {
    const store = new TranscriptStore();
    const perChapter = BLOCK_MAX * CHAPTER_MAX;
    fill(store, 0, perChapter * 3 + 5);
    render(<TranscriptView store={store} language="en-US" status="recording" />);
    const region = screen.getByRole('region', { name: 'Transcript' });
    const settled = region.querySelectorAll('[data-settled]');
    expect(settled).toHaveLength(2);
    // The text's box, two settled chapters, the newest full chapter and its paragraphs, the open
    // chapter and its one paragraph, and the (empty, hidden) interim line: not one element per segment.
    expect(region.querySelectorAll('*')).toHaveLength(1 + 2 + 1 + CHAPTER_MAX + 1 + 1 + 1);
    expect(settled[1]!.childNodes).toHaveLength(1);
    expect(settled[1]!.textContent!.split('\n\n')).toHaveLength(CHAPTER_MAX);
    const words = region.textContent!.match(/w\d+/g)!;
    expect(words).toHaveLength(perChapter * 3 + 5);
    expect(words.at(-1)).toBe(`w${perChapter * 3 + 4}`);
    expect(words[perChapter]).toBe(`w${perChapter}`);

    // More results: the settled chapters are the same nodes, untouched.
    const observer = new MutationObserver(() => {});
    observer.observe(region, { subtree: true, childList: true, characterData: true });
    act(() => fill(store, perChapter * 3 + 5, perChapter * 3 + 7));
    const touched = observer.takeRecords().map((r) => (r.target instanceof Element ? r.target : r.target.parentElement));
    expect(touched.length).toBeGreaterThan(0);
    for (const target of touched) expect(target?.closest('[data-settled]')).toBeNull();
    expect([...region.querySelectorAll('[data-settled]')]).toEqual([...settled]);
    expect(region.firstElementChild!.lastElementChild!.previousElementSibling!.textContent).toContain(`w${perChapter * 3 + 6} and more`);

    // Once the open chapter is full and another opens, the chapter before it settles.
    act(() => fill(store, perChapter * 3 + 7, perChapter * 4 + 1));
    const now = region.querySelectorAll('[data-settled]');
    expect(now).toHaveLength(3);
    expect(now[2]!.textContent!.split('\n\n')).toHaveLength(CHAPTER_MAX);
    expect(now[2]!.textContent).toContain(`w${perChapter * 3 - 1} and more`);
    expect(region.textContent!.match(/w\d+/g)).toHaveLength(perChapter * 4 + 1);

    // The full chapter above the open one settles as soon as the open one holds enough text to put it far out of view.
    const openChars = () => store.getChapters().at(-1)!.blocks.reduce((chars, block) => chars + block.text.length, 0);
    let next = perChapter * 4 + 1;
    while (openChars() < SETTLE_BELOW_CHARS) {
      expect(region.querySelectorAll('[data-settled]')).toHaveLength(3);
      act(() => fill(store, next, next + 1));
      next += 1;
    }
    expect(next - perChapter * 4).toBeLessThan(perChapter);
    const after = region.querySelectorAll('[data-settled]');
    expect(after).toHaveLength(4);
    expect([...after].slice(0, 3)).toEqual([...now]);
    expect(after[3]!.textContent).toContain(`w${perChapter * 4 - 1} and more`);
    expect(region.textContent!.match(/w\d+/g)).toHaveLength(next);
  });

  it('a new result changes only the last paragraph', () => {
    const store = new TranscriptStore();
    fill(store, 0, BLOCK_MAX * 3 + 2);
    render(<TranscriptView store={store} language="en-US" status="recording" />);
    const region = screen.getByRole('region', { name: 'Transcript' });
    const paragraphs = [...region.querySelectorAll('p:not([hidden])')];
    expect(paragraphs).toHaveLength(4);
    const observer = new MutationObserver(() => {});
    observer.observe(region, { subtree: true, childList: true, characterData: true });
    act(() => fill(store, BLOCK_MAX * 3 + 2, BLOCK_MAX * 3 + 3));
    const records = observer.takeRecords();
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.target === paragraphs[3] || r.target.parentNode === paragraphs[3]).toBe(true);
    expect(paragraphs[3]!.textContent).toBe(Array.from({ length: 3 }, (_, i) => `w${BLOCK_MAX * 3 + i} and more`).join(' '));
  });

  it('the live region announces only the newest final text', () => {
    const store = new TranscriptStore();
    fill(store, 0, 50);
    const { container } = render(<TranscriptView store={store} language="en-US" status="recording" />);
    const live = container.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');
    act(() => store.append({ text: 'brand new words', startMs: 60_000, endMs: 61_000 }));
    expect(live.textContent).toBe('brand new words');
    act(() => store.setInterim('not yet final'));
    expect(live.textContent).toBe('brand new words');
  });

  it('interim text changes one text node, never the final text, and leaves with the final result', () => {
    const store = new TranscriptStore();
    fill(store, 0, 3);
    render(<TranscriptView store={store} language="en-US" status="recording" />);
    const region = screen.getByRole('region', { name: 'Transcript' });
    expect(region.querySelector('[data-interim]')).toBeNull();
    act(() => store.setInterim('hel'));
    const interim = region.querySelector('[data-interim]')!;
    expect(interim).toBeVisible();
    expect(interim.textContent).toBe('hel');
    const observer = new MutationObserver(() => {});
    observer.observe(region, { subtree: true, childList: true, characterData: true, attributes: true });
    act(() => store.setInterim('hello wor'));
    const records = observer.takeRecords();
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.target === interim || r.target.parentNode === interim).toBe(true);
    expect(interim.textContent).toBe('hello wor');
    act(() => {
      store.setInterim('');
      store.append({ text: 'hello world', startMs: 5000, endMs: 5600 });
    });
    expect(region.querySelector('[data-interim]')).toBeNull();
    expect(interim).not.toBeVisible();
    expect(region.textContent).toContain('hello world');
  });
});

describe('transcript view following', () => {
  /** jsdom lays nothing out: the region's geometry is set by hand, and each scroll is an event at a position. */
  const geometry = (region: HTMLElement) => {
    const box = { top: 0, height: 1000 };
    Object.defineProperty(region, 'clientHeight', { configurable: true, get: () => 200 });
    Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => box.height });
    Object.defineProperty(region, 'scrollTop', { configurable: true, get: () => box.top, set: (v: number) => (box.top = v) });
    const scrollTo = (top: number, height = box.height) => {
      box.top = top;
      box.height = height;
      act(() => {
        region.dispatchEvent(new Event('scroll'));
      });
    };
    return scrollTo;
  };
  const jumpButton = () => screen.queryByRole('button', { name: 'Jump to latest' });

  it('a scroll down that is not to the bottom (the browser keeping the view on its text) never stops the following; a scroll up does', () => {
    const store = new TranscriptStore();
    store.append({ text: 'hello', startMs: 0, endMs: 900 });
    render(<TranscriptView store={store} language="en-US" status="recording" />);
    const scrollTo = geometry(screen.getByRole('region', { name: 'Transcript' }));
    scrollTo(800);
    // More text came (the box is taller) and the browser moved the view down, not all the way.
    scrollTo(834, 1100);
    expect(jumpButton()).toBeNull();
    // The reader scrolls up to read.
    scrollTo(400);
    expect(jumpButton()).not.toBeNull();
    // Scrolling down without reaching the bottom keeps the reader where they are.
    scrollTo(600);
    expect(jumpButton()).not.toBeNull();
    // Back at the bottom (within a few lines): following again.
    scrollTo(880);
    expect(jumpButton()).toBeNull();
  });
});
