import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CaptionDestination } from '@app/shared/schemas/live';
import { json, mockFetch, renderPage } from '../../../test/render';
import { CaptionDestinations } from './caption-destinations';

const CODE = 'AbCdEfGh_-12';

/** A server holding the share's destinations: adds refuse anything but an https upload.youtube.com or wmcc.zoom.us address, as the real one. */
function fakeServer(initial: CaptionDestination[] = []) {
  let list = [...initial];
  const calls = mockFetch((call) => {
    if (call.params.code !== CODE) return json(404, { error: 'Unknown live link' });
    if (call.route === 'listCaptionDestinations') return json(200, { destinations: list });
    if (call.route === 'addCaptionDestination') {
      const { service, url } = call.body as { service: 'youtube' | 'zoom'; url: string };
      if (!/^https:\/\/(upload\.youtube\.com|wmcc\.zoom\.us)\/closedcaption\?/.test(url)) return json(400, { error: 'refused', code: 'invalid_destination' });
      const d: CaptionDestination = { id: `01JAAAAAAAAAAAAAAAAAAAAAA${list.length}`, service, target: `${new URL(url).host} …${url.slice(-4)}`, state: 'waiting', createdAt: '2030-01-01T12:00:00.000Z' };
      list.push(d);
      return json(200, d);
    }
    if (call.route === 'updateCaptionDestination') {
      const paused = (call.body as { paused: boolean }).paused;
      list = list.map((d) => (d.id === call.params.id ? { ...d, state: paused ? 'paused' : 'waiting' } : d));
      return json(200, list.find((d) => d.id === call.params.id));
    }
    if (call.route === 'removeCaptionDestination') {
      list = list.filter((d) => d.id !== call.params.id);
      return json(200, { ok: true });
    }
    return json(404, { error: 'Not found' });
  });
  return calls;
}

describe('caption destinations in the share panel', () => {
  it('shows each destination’s state, when it last delivered and what the service said, never a URL', async () => {
    fakeServer([
      { id: '01JAAAAAAAAAAAAAAAAAAAAAA1', service: 'youtube', target: 'upload.youtube.com …abcd', state: 'delivered', createdAt: '2030-01-01T12:00:00.000Z', lastDeliveredAt: '2030-01-01T12:01:00.000Z' },
      { id: '01JAAAAAAAAAAAAAAAAAAAAAA2', service: 'zoom', target: 'wmcc.zoom.us …wxyz', state: 'failed', createdAt: '2030-01-01T12:00:00.000Z', error: '400: Bad request. The meeting has not started.' },
    ]);
    renderPage(<CaptionDestinations code={CODE} />);
    const yt = await screen.findByRole('listitem', { name: 'YouTube Live upload.youtube.com …abcd' });
    expect(within(yt).getByText(/^Up to date · last delivered/)).toBeInTheDocument();
    const zoom = screen.getByRole('listitem', { name: 'Zoom wmcc.zoom.us …wxyz' });
    expect(within(zoom).getByText('The service said: 400: Bad request. The meeting has not started.')).toBeInTheDocument();
  });

  it('adds a YouTube destination, refuses a wrong address with the reason, pauses, resumes and removes', async () => {
    const user = userEvent.setup();
    const calls = fakeServer();
    renderPage(<CaptionDestinations code={CODE} />);
    const field = await screen.findByRole('textbox', { name: 'Caption ingestion URL' });
    await user.type(field, 'http://upload.youtube.com/closedcaption?cid=abcd');
    await user.click(screen.getByRole('button', { name: 'Add destination' }));
    expect(await screen.findByText(/That is not a YouTube caption ingestion URL/)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field);
    await user.type(field, 'https://upload.youtube.com/closedcaption?cid=abcd');
    await user.click(screen.getByRole('button', { name: 'Add destination' }));
    const item = await screen.findByRole('listitem', { name: 'YouTube Live upload.youtube.com …abcd' });
    expect(within(item).getByText('Waiting for words')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(calls.filter((c) => c.route === 'addCaptionDestination').at(-1)?.body).toEqual({ service: 'youtube', url: 'https://upload.youtube.com/closedcaption?cid=abcd' });

    await user.click(within(item).getByRole('button', { name: 'Pause YouTube Live upload.youtube.com …abcd' }));
    expect(await within(item).findByText('Paused')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Resume YouTube Live upload.youtube.com …abcd' }));
    expect(await within(item).findByText('Waiting for words')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Remove YouTube Live upload.youtube.com …abcd' }));
    await waitFor(() => expect(screen.queryByRole('listitem')).not.toBeInTheDocument());
  });

  it('asks for a Zoom API token when Zoom is chosen', async () => {
    const user = userEvent.setup();
    const calls = fakeServer();
    renderPage(<CaptionDestinations code={CODE} />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Service' }), 'Zoom');
    await user.type(screen.getByRole('textbox', { name: 'Zoom API token' }), 'https://wmcc.zoom.us/closedcaption?id=1&ns=x');
    await user.click(screen.getByRole('button', { name: 'Add destination' }));
    expect(await screen.findByRole('listitem', { name: 'Zoom wmcc.zoom.us …ns=x' })).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'addCaptionDestination')?.body).toMatchObject({ service: 'zoom' });
  });
});
