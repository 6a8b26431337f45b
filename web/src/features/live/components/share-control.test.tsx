import { OPEN_UPGRADE_EVENT } from '../../../lib/open-upgrade';
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import LiveShareControl, { type LiveShareProps } from './share-control';

const SESSION = '01JAAAAAAAAAAAAAAAAAAAAAAA';
const CODE = 'AbCdEfGh_-12';
const LINK = `${window.location.origin}/live/${CODE}`;

function fakeShareServer(viewers = 3) {
  return mockFetch((call) => {
    if (call.route === 'startLiveShare') return json(200, { code: CODE, expiresAt: '2030-01-01T12:00:00.000Z' });
    if (call.route === 'stopLiveShare' && call.params.code === CODE) return json(200, { ok: true });
    if (call.route === 'countLiveViewers' && call.params.code === CODE) return json(200, { viewers });
    return json(404, { error: 'Not found' });
  });
}

/** The control as the transcription card holds it; `endSession()` is the card's session ending. */
function renderControl(props: Partial<LiveShareProps> = {}) {
  const setLive = vi.fn();
  let setSession: (id: string | null) => void = () => undefined;
  function Card() {
    const [sessionId, set] = useState<string | null>(props.sessionId === undefined ? SESSION : props.sessionId);
    setSession = set;
    return <LiveShareControl isPro={props.isPro ?? true} setLive={setLive} sessionId={sessionId} />;
  }
  const { unmount } = renderPage(<Card />);
  return { setLive, endSession: () => act(() => setSession(null)), unmount };
}

describe('live share control', () => {
  it('shares the running session: link, QR code, copy, viewer count; the short save cadence goes on', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer(3);
    const { setLive } = renderControl();
    await user.click(screen.getByRole('button', { name: 'Share live' }));

    const panel = await screen.findByRole('region', { name: 'Live captions link' });
    expect(calls.find((c) => c.route === 'startLiveShare')).toMatchObject({ method: 'POST', body: { sessionId: SESSION, includeEarlier: false } });
    expect(screen.getByRole('textbox', { name: 'Live link' })).toHaveValue(LINK);
    const qr = screen.getByRole('img', { name: 'QR code of the live link' });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(setLive).toHaveBeenLastCalledWith(true);
    expect(await screen.findByText('3 people following')).toBeInTheDocument();
    expect(calls.some((c) => c.route === 'countLiveViewers' && c.params.code === CODE)).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(LINK);
    expect(screen.getByText('Link copied')).toBeInTheDocument();
    expect(panel).toBeInTheDocument();
  });

  it('stops sharing: DELETE, the panel goes, the usual cadence comes back, and Share is offered again', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer(1);
    const { setLive } = renderControl();
    await user.click(screen.getByRole('button', { name: 'Share live' }));
    expect(await screen.findByText('1 person following')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Live captions link' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.route === 'stopLiveShare' && c.params.code === CODE)).toBe(true);
    expect(setLive).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('button', { name: 'Share live' })).toBeInTheDocument();
  });

  it('shares what was said before too when the speaker ticks the box', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer();
    renderControl();
    await user.click(screen.getByRole('checkbox', { name: 'Also show what was said before sharing' }));
    await user.click(screen.getByRole('button', { name: 'Share live' }));
    await screen.findByRole('region', { name: 'Live captions link' });
    expect(calls.find((c) => c.route === 'startLiveShare')).toMatchObject({ body: { sessionId: SESSION, includeEarlier: true } });
  });

  it('stops the share on the server, then shows it as ended, when its session ends', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer();
    const { setLive, endSession } = renderControl();
    await user.click(screen.getByRole('button', { name: 'Share live' }));
    await screen.findByRole('region', { name: 'Live captions link' });
    expect(calls.some((c) => c.route === 'stopLiveShare')).toBe(false);
    endSession();
    expect(await screen.findByText('Live sharing ended: the session is over.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Live captions link' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.route === 'stopLiveShare' && c.params.code === CODE)).toHaveLength(1);
    expect(setLive).toHaveBeenLastCalledWith(false);
  });

  it('stops the share when the screen goes away while sharing', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer();
    const { unmount } = renderControl();
    await user.click(screen.getByRole('button', { name: 'Share live' }));
    await screen.findByRole('region', { name: 'Live captions link' });
    unmount();
    await waitFor(() => expect(calls.filter((c) => c.route === 'stopLiveShare' && c.params.code === CODE)).toHaveLength(1));
  });

  it('offers a free user the upgrade instead of sharing', async () => {
    const user = userEvent.setup();
    const calls = fakeShareServer();
    const upgrade = vi.fn();
    window.addEventListener(OPEN_UPGRADE_EVENT, upgrade);
    try {
      renderControl({ isPro: false });
      await user.click(screen.getByRole('button', { name: 'Share live' }));
      expect(upgrade).toHaveBeenCalledTimes(1);
      expect(calls.filter((c) => c.route === 'startLiveShare' || c.route === 'stopLiveShare' || c.route === 'countLiveViewers')).toHaveLength(0);
    } finally {
      window.removeEventListener(OPEN_UPGRADE_EVENT, upgrade);
    }
  });

  it('offers nothing while no session runs', () => {
    fakeShareServer();
    renderControl({ sessionId: null });
    expect(screen.queryByRole('button', { name: 'Share live' })).not.toBeInTheDocument();
  });
});
