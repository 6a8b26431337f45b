import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTranslator } from '../../../components/translation/testing/fake-translator';
import { PieceFeed } from '../lib/piece-feed';
import ViewerTranslation from './viewer-translation';

beforeEach(() => FakeTranslator.reset());
afterEach(() => vi.unstubAllGlobals());

describe('a viewer’s translation', () => {
  it('translates each new piece once, in order, after the download; text from before the choice only from its last piece', async () => {
    vi.stubGlobal('Translator', FakeTranslator);
    FakeTranslator.pairs.set('en>es', 'downloadable');
    const feed = new PieceFeed();
    feed.push('old one');
    feed.push('old two');
    render(<ViewerTranslation feed={feed} language="en-US" />);
    await userEvent.setup().selectOptions(screen.getByRole('combobox', { name: 'Translate captions into' }), 'es');
    await screen.findByText('Translated on this device into Spanish: nothing is sent anywhere.');
    act(() => {
      feed.push('first');
      feed.push('second');
    });
    const region = screen.getByRole('region', { name: 'Translation' });
    await waitFor(() => expect(region).toHaveTextContent('«es» old two «es» first «es» second'));
    act(() => feed.push('third'));
    await waitFor(() => expect(region).toHaveTextContent('«es» old two «es» first «es» second «es» third'));
    expect(FakeTranslator.calls).toEqual(['old two', 'first', 'second', 'third']);
  });

  it('says when the pair is unavailable, and when the browser has no Translator; the original stays', async () => {
    vi.stubGlobal('Translator', FakeTranslator);
    const feed = new PieceFeed();
    const { unmount } = render(<ViewerTranslation feed={feed} language="en-US" />);
    const ui = userEvent.setup();
    await ui.selectOptions(screen.getByRole('combobox', { name: 'Translate captions into' }), 'fr');
    await screen.findByText('This browser cannot translate English into French. The original captions are shown.');
    unmount();
    vi.stubGlobal('Translator', undefined);
    render(<ViewerTranslation feed={feed} language="en-US" />);
    await ui.selectOptions(screen.getByRole('combobox', { name: 'Translate captions into' }), 'es');
    await screen.findByText('This browser has no on-device translation (the Translator API; phones do not have it yet). The original captions are shown.');
    expect(screen.queryByRole('region', { name: 'Translation' })).toBeNull();
  });
});
