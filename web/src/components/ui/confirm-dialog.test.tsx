import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

function Harness({ pending = false, onConfirm = () => undefined }: { pending?: boolean; onConfirm?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p data-testid="state">{open ? 'open' : 'closed'}</p>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete this note?"
        description="It cannot be undone."
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        cancelLabel="Cancel"
        pending={pending}
        onConfirm={onConfirm}
      />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('asks in an alert dialog with the focus on Cancel; a click outside does not answer it, Escape and Cancel close it', async () => {
    // The page behind a modal takes no pointer events; the click still reaches the document.
    const ui = userEvent.setup({ pointerEventsCheck: 0 });
    const { unmount } = render(<Harness />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this note?' });
    expect(dialog).toHaveAccessibleDescription('It cannot be undone.');
    // Rendered outside the main region, its text (a transcript's title, say) is masked from session recording on its own.
    expect(dialog).toHaveAttribute('data-clarity-mask', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();

    await ui.click(document.body);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await ui.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('state')).toHaveTextContent('closed');
    unmount();

    render(<Harness />);
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('runs the action and stays open until the caller closes it; while pending nothing closes it', async () => {
    const ui = userEvent.setup();
    const onConfirm = vi.fn();
    const { rerender } = render(<Harness onConfirm={onConfirm} />);
    await ui.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();

    rerender(<Harness pending onConfirm={onConfirm} />);
    expect(screen.getByRole('button', { name: 'Deleting…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await ui.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(screen.getByTestId('state')).toHaveTextContent('open');
  });
});
