import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import HomePage from '../../../app/routes/home/home-page';
import { renderPage } from '../../../test/render';
import { FakeRecognition } from '../engine/testing/fake-recognition';

// The recovery code (loaded on demand) cannot be fetched: offline, or a new deploy removed the old chunk.
vi.mock('../lib/runtime', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('transcription card when its on-demand code cannot load', () => {
  it('looking for a transcript to restore fails quietly: logged, no unhandled rejection, the card stays usable', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    window.localStorage.setItem('transcribe.recovery.active', '1');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderPage(<HomePage />);
    await waitFor(() => expect(warn).toHaveBeenCalledWith('[transcribe] could not look for a transcript to restore', expect.any(Error)));
    const card = screen.getByRole('region', { name: 'Live transcription' });
    expect(within(card).getByRole('status')).toHaveTextContent('Ready');
    expect(screen.queryByText('Unsaved transcript found')).not.toBeInTheDocument();
  });
});
