import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TranscriptStore } from '../lib/transcript-store';
import { TranscriptView } from './transcript-view';

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
