import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ShortcutsHelp } from './shortcuts-help';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ShortcutsHelp open={open} onOpenChange={setOpen} />
      <button type="button">Elsewhere</button>
    </>
  );
}

const panel = () => screen.queryByRole('region', { name: 'Keyboard shortcuts' });

describe('keyboard shortcuts popover', () => {
  it('opens below its button without taking the focus, lists the keys, and closes with Escape (focus back on the button)', async () => {
    render(<Harness />);
    const ui = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Keyboard shortcuts' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-keyshortcuts', '?');

    await ui.click(button);
    const region = await screen.findByRole('region', { name: 'Keyboard shortcuts' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', region.id);
    expect(button).toHaveFocus();
    const terms = within(region).getAllByRole('term').map((term) => term.textContent);
    expect(terms).toEqual(['Start, pause or resume', 'Stop', 'Caption mode', 'Show these shortcuts']);
    expect(within(region).getAllByRole('definition').map((key) => key.textContent)).toEqual(['k', 's', 'c', '?']);

    // Moving the focus away keeps it open; Escape closes it and brings the focus back.
    await ui.tab();
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();
    expect(panel()).toBeInTheDocument();
    await ui.keyboard('{Escape}');
    await waitFor(() => expect(panel()).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes on a click outside, and its button toggles it', async () => {
    render(<Harness />);
    const ui = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Keyboard shortcuts' });

    await ui.click(button);
    await screen.findByRole('region', { name: 'Keyboard shortcuts' });
    await ui.click(screen.getByRole('button', { name: 'Elsewhere' }));
    await waitFor(() => expect(panel()).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await ui.click(button);
    expect(await screen.findByRole('region', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await ui.click(button);
    await waitFor(() => expect(panel()).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
