import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FaqAccordion } from './faq-accordion';

const items = [
  { id: 'a', question: 'First question?', answer: 'First answer.' },
  { id: 'b', question: 'Second question?', answer: 'Second answer.' },
  { id: 'c', question: 'Third question?', answer: 'Third answer.' },
];

describe('FaqAccordion', () => {
  it('puts each question in a heading and opens one answer at a time, as a region named by its question', async () => {
    render(<FaqAccordion items={items} />);
    const ui = userEvent.setup();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['First question?', 'Second question?', 'Third question?']);
    const first = screen.getByRole('button', { name: 'First question?' });
    const second = screen.getByRole('button', { name: 'Second question?' });
    expect(screen.queryByRole('region')).not.toBeInTheDocument();

    await ui.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'First question?' })).toHaveTextContent('First answer.');
    expect(first).toHaveAttribute('aria-controls', screen.getByRole('region').id);

    await ui.click(second);
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByRole('region')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Second question?' })).toHaveTextContent('Second answer.');
    await ui.click(second);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('moves between the questions with the arrow keys, Home and End; Enter and Space open them', async () => {
    render(<FaqAccordion items={items} />);
    const ui = userEvent.setup();
    await ui.tab();
    expect(screen.getByRole('button', { name: 'First question?' })).toHaveFocus();
    await ui.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Second question?' })).toHaveFocus();
    await ui.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Third question?' })).toHaveFocus();
    await ui.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'First question?' })).toHaveFocus();
    await ui.keyboard('{ArrowUp}');
    expect(screen.getByRole('button', { name: 'Third question?' })).toHaveFocus();
    await ui.keyboard('{Home}');
    await ui.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'First question?' })).toBeInTheDocument();
    await ui.keyboard('{ArrowDown}{ }');
    expect(screen.getByRole('region', { name: 'Second question?' })).toBeInTheDocument();
  });
});
