import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import { helpContent } from '../content/help-content';
import HelpPage from './help-page';

beforeAll(async () => {
  await helpContent.load('en');
});

const user = {
  id: 'u1', name: 'Ana Souza', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};

function server(contact: (call: MockCall) => Response) {
  return mockFetch((call) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'contact') return contact(call);
    return json(404, { error: 'Not found' });
  });
}

const form = () => screen.getByRole('region', { name: 'Contact us' });

describe('help page', () => {
  it('has the quick cards and six FAQ items, one open at a time', async () => {
    mockFetch(() => json(404, {}));
    renderPage(<HelpPage />, { path: '/help' });
    const topics = screen.getByRole('navigation', { name: 'Help topics' });
    expect(within(topics).getByRole('link', { name: /Getting started/ })).toHaveAttribute('href', '#guide');
    expect(within(topics).getByRole('link', { name: /FAQ/ })).toHaveAttribute('href', '#faq');
    expect(within(topics).getByRole('link', { name: /Contact us/ })).toHaveAttribute('href', '#contact');

    const questions = within(screen.getByRole('region', { name: 'Frequently asked questions' })).getAllByRole('button');
    expect(questions).toHaveLength(6);
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Which browsers can I use?' }));
    expect(screen.getByRole('region', { name: 'Which browsers can I use?' })).toHaveTextContent(/Google Chrome/);
    await ui.click(screen.getByRole('button', { name: 'What is the difference between Free and Pro?' }));
    expect(screen.getByRole('button', { name: 'Which browsers can I use?' })).toHaveAttribute('aria-expanded', 'false');
    const plans = screen.getByRole('region', { name: 'What is the difference between Free and Pro?' });
    expect(plans).toHaveTextContent('each session stops after 60 seconds');
    expect(plans).toHaveTextContent('$6.00');
    expect(plans).toHaveTextContent('R$35.00');
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
    await ui.click(screen.getByRole('button', { name: 'Is my data private? Can I cancel or get a refund?' }));
    expect(screen.getByRole('region', { name: /Is my data private/ })).toHaveTextContent('within 7 days');
  });
});

describe('contact form', () => {
  it('requires every field, then sends the message, clears the form and says so', async () => {
    const calls = server(() => json(200, { ok: true }));
    renderPage(<HelpPage />, { path: '/help' });
    const ui = userEvent.setup();
    await ui.click(within(form()).getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(within(form()).getByLabelText('Name')).toHaveAccessibleDescription('Enter your name.'));
    expect(within(form()).getByLabelText('Email')).toHaveAccessibleDescription('Enter your email.');
    expect(within(form()).getByLabelText('Subject')).toHaveAccessibleDescription('Enter a subject.');
    expect(within(form()).getByLabelText('Message')).toHaveAccessibleDescription('Enter your message.');
    expect(within(form()).getByLabelText('Name')).toHaveFocus();
    expect(calls).toHaveLength(0);

    await ui.type(within(form()).getByLabelText('Name'), 'Bruno');
    await ui.type(within(form()).getByLabelText('Email'), 'bruno@example.com');
    await ui.type(within(form()).getByLabelText('Subject'), 'Export');
    await ui.type(within(form()).getByLabelText('Message'), 'How do I export SRT?');
    await ui.click(within(form()).getByRole('button', { name: 'Send message' }));

    expect(await screen.findByText('Message sent')).toBeInTheDocument();
    expect(calls.filter((c) => c.route === 'contact').map((c) => [c.method, c.body])).toEqual([
      ['POST', { name: 'Bruno', email: 'bruno@example.com', subject: 'Export', message: 'How do I export SRT?' }],
    ]);
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(within(form()).getByLabelText(label)).toHaveValue('');
  });

  it('prefills and locks the name and email of a signed-in user, and keeps them after sending', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = server(() => json(200, { ok: true }));
    renderPage(<HelpPage />, { path: '/help' });
    const name = within(form()).getByLabelText('Name');
    const email = within(form()).getByLabelText('Email');
    expect(await within(form()).findByDisplayValue('Ana Souza')).toBe(name);
    expect(email).toHaveValue('ana@example.com');
    expect(name).toHaveAttribute('readonly');
    expect(email).toHaveAttribute('readonly');
    expect(name).toHaveAccessibleDescription('From your account.');

    const ui = userEvent.setup();
    await ui.type(name, 'X');
    expect(name).toHaveValue('Ana Souza');
    await ui.type(within(form()).getByLabelText('Subject'), 'Refund');
    await ui.type(within(form()).getByLabelText('Message'), 'Please refund my last payment.');
    await ui.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Message sent')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'contact')?.body).toEqual({
      name: 'Ana Souza', email: 'ana@example.com', subject: 'Refund', message: 'Please refund my last payment.',
    });
    expect(within(form()).getByLabelText('Subject')).toHaveValue('');
    expect(name).toHaveValue('Ana Souza');
  });

  it('shows the contact error toast on failure and keeps what was typed', async () => {
    server(() => json(500, { error: 'Something went wrong on our side.' }));
    renderPage(<HelpPage />, { path: '/help' });
    const ui = userEvent.setup();
    await ui.type(within(form()).getByLabelText('Name'), 'Bruno');
    await ui.type(within(form()).getByLabelText('Email'), 'bruno@example.com');
    await ui.type(within(form()).getByLabelText('Subject'), 'Hi');
    await ui.type(within(form()).getByLabelText('Message'), 'Hello');
    await ui.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Message not sent')).toBeInTheDocument();
    expect(screen.getByText('Your message could not be sent. Please try again.')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Message')).toHaveValue('Hello');
  });

  it('asks to wait when the messages are rate-limited', async () => {
    server(() => json(429, { error: 'Too many messages.', code: 'contact_rate_limited', secondsLeft: 600 }));
    renderPage(<HelpPage />, { path: '/help' });
    const ui = userEvent.setup();
    await ui.type(within(form()).getByLabelText('Name'), 'Bruno');
    await ui.type(within(form()).getByLabelText('Email'), 'bruno@example.com');
    await ui.type(within(form()).getByLabelText('Subject'), 'Hi');
    await ui.type(within(form()).getByLabelText('Message'), 'Hello');
    await ui.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await within(form()).findByRole('status')).toHaveTextContent(
      'You have sent several messages recently. Please wait 10:00 before sending another one.',
    );
  });
});
