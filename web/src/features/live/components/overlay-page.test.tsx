import { DEFAULT_CAPTION_STYLE } from '@app/shared/caption-style';
import { LIVE_POLL_MS } from '@app/shared/constants';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import LiveOverlayPage from './overlay-page';

const CODE = 'AbCdEfGh_-12';

function fakeLive() {
  const state = { text: '', status: 'live' as 'live' | 'ended' };
  mockFetch((call) => {
    if (call.route !== 'viewLiveShare' || call.params.code !== CODE) return json(404, { error: 'Not found' });
    const after = Math.min(Number(call.query.after ?? 0), state.text.length);
    return json(200, {
      status: state.status,
      from: after,
      text: state.text.slice(after),
      next: state.text.length,
      language: 'en-US',
      updatedAt: new Date().toISOString(),
      style: { ...DEFAULT_CAPTION_STYLE, lines: 4 },
    });
  });
  return state;
}

const tick = (ms = LIVE_POLL_MS) => act(() => vi.advanceTimersByTimeAsync(ms));
const open = (query = '') => renderPage(<LiveOverlayPage />, { path: `/live/${CODE}/overlay${query}`, pattern: '/live/:code/overlay' });
const lines = () => [...screen.getByRole('region', { name: 'Captions' }).children].map((el) => el.textContent);
/** Enough words for many lines at any width a test page has. */
const words = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `word${from + i}`).join(' ');

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  // jsdom has no canvas: the page estimates widths, which is enough to count lines.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('live captions overlay', () => {
  it('makes the page transparent while it is open', () => {
    fakeLive();
    const { unmount } = open();
    expect(document.documentElement).toHaveClass('overlay');
    unmount();
    expect(document.documentElement).not.toHaveClass('overlay');
  });

  it('shows only the newest lines (the address’s count), in order, then clears when the speaker stops', async () => {
    const live = fakeLive();
    live.text = words(1, 60);
    open('?lines=2&position=lower-third');
    await tick(0);
    const first = lines();
    expect(first).toHaveLength(2);
    expect(first.join(' ')).toMatch(/word60$/);
    expect(live.text.endsWith(` ${first.join(' ')}`)).toBe(true);

    live.text += ` ${words(61, 120)}`;
    await tick();
    const next = lines();
    expect(next).toHaveLength(2);
    expect(next.join(' ')).toMatch(/word120$/);
    expect(live.text.endsWith(` ${next.join(' ')}`)).toBe(true);

    live.status = 'ended';
    await tick();
    expect(screen.queryByRole('region', { name: 'Captions' })).toBeNull();
  });

  it('keeps the speaker’s lines when the address’s values are bad', async () => {
    const live = fakeLive();
    live.text = words(1, 200);
    open('?lines=99&position=__proto__&size=huge&color=red');
    await tick(0);
    expect(lines()).toHaveLength(4);
    expect(lines().join(' ')).toMatch(/word200$/);
  });
});
