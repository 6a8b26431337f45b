import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import LiveLinks from './live-links';

const link = (code: string, status: 'live' | 'ended') => ({ code, status, createdAt: '2030-01-01T10:00:00.000Z', expiresAt: '2030-01-01T22:00:00.000Z' });

/** A server holding `links`; Stop and Stop all end them as the API does. */
function fakeServer(links: ReturnType<typeof link>[]) {
  return mockFetch((call) => {
    if (call.route === 'listLiveShares') return json(200, { links });
    if (call.route === 'stopLiveShare') {
      const found = links.find((l) => l.code === call.params.code);
      if (!found) return json(404, { error: 'Unknown live link' });
      found.status = 'ended';
      return json(200, { ok: true });
    }
    if (call.route === 'stopAllLiveShares') {
      const live = links.filter((l) => l.status === 'live');
      for (const l of live) l.status = 'ended';
      return json(200, { stopped: live.length });
    }
    return json(404, { error: 'Not found' });
  });
}

describe('live links on the profile', () => {
  it('lists live and ended links; Stop ends one, Stop all the rest', async () => {
    const user = userEvent.setup();
    const calls = fakeServer([link('AAAAAAAAAAA1', 'live'), link('AAAAAAAAAAA2', 'live'), link('AAAAAAAAAAA3', 'live'), link('AAAAAAAAAAA4', 'ended')]);
    renderPage(<LiveLinks isPro />);
    const section = await screen.findByRole('region', { name: 'Live links' });
    const items = await within(section).findAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^Live\/live\/AAAAAAAAAAA1/),
      expect.stringMatching(/^Live\/live\/AAAAAAAAAAA2/),
      expect.stringMatching(/^Live\/live\/AAAAAAAAAAA3/),
      expect.stringMatching(/^Ended\/live\/AAAAAAAAAAA4/),
    ]);
    expect(within(items[3]!).queryByRole('button')).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Stop sharing /live/AAAAAAAAAAA1' }));
    await waitFor(() => expect(within(section).queryByRole('button', { name: 'Stop sharing /live/AAAAAAAAAAA1' })).toBeNull());
    expect(calls.filter((c) => c.route === 'stopLiveShare').map((c) => c.params.code)).toEqual(['AAAAAAAAAAA1']);

    await user.click(within(section).getByRole('button', { name: 'Stop all' }));
    expect(await screen.findByText('2 live links stopped')).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryAllByRole('button')).toEqual([]));
    expect(calls.filter((c) => c.route === 'stopAllLiveShares')).toHaveLength(1);
  });

  it('says so when there are none (Pro), and shows nothing to a free user without links', async () => {
    fakeServer([]);
    const { unmount } = renderPage(<LiveLinks isPro />);
    expect(await screen.findByText('You have no live links right now.')).toBeInTheDocument();
    unmount();
    const calls = fakeServer([]);
    renderPage(<LiveLinks isPro={false} />);
    await waitFor(() => expect(calls.some((c) => c.route === 'listLiveShares')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Live links' })).toBeNull();
  });

  it('says when the list cannot load', async () => {
    mockFetch(() => json(500, { error: 'Internal error' }));
    renderPage(<LiveLinks isPro />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your live links.');
  });
});
