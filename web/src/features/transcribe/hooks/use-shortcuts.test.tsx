import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useShortcuts } from './use-shortcuts';

function Harness({ handlers }: { handlers: Parameters<typeof useShortcuts>[0] }) {
  useShortcuts(handlers);
  return (
    <div>
      <label>
        Note <input />
      </label>
      <div role="dialog" aria-label="Other dialog">
        <button type="button">Inside</button>
      </div>
      <div role="dialog" aria-label="Captions" data-caption-mode="">
        <button type="button">Caption button</button>
      </div>
    </div>
  );
}

describe('useShortcuts', () => {
  it('k, s, c and ? run their actions; never while typing, with modifiers, or in another dialog', async () => {
    const handlers = { toggle: vi.fn(), stop: vi.fn(), captions: vi.fn(), help: vi.fn() };
    render(<Harness handlers={handlers} />);
    const ui = userEvent.setup();
    await ui.keyboard('k');
    await ui.keyboard('S');
    await ui.keyboard('c');
    await ui.keyboard('?');
    expect([handlers.toggle, handlers.stop, handlers.captions, handlers.help].map((f) => f.mock.calls.length)).toEqual([1, 1, 1, 1]);

    await ui.click(screen.getByRole('textbox', { name: 'Note' }));
    await ui.keyboard('kscs');
    expect(handlers.toggle).toHaveBeenCalledTimes(1);
    await ui.keyboard('{Control>}k{/Control}');
    expect(handlers.toggle).toHaveBeenCalledTimes(1);

    screen.getByRole('button', { name: 'Inside' }).focus();
    await ui.keyboard('k');
    expect(handlers.toggle).toHaveBeenCalledTimes(1);
    // Caption mode is the one dialog where they keep working.
    screen.getByRole('button', { name: 'Caption button' }).focus();
    await ui.keyboard('k');
    expect(handlers.toggle).toHaveBeenCalledTimes(2);
  });
});
