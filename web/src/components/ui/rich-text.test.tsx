import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RichText } from './rich-text';

describe('RichText', () => {
  it('renders each marked part with its function and keeps the text around it', () => {
    const { container } = render(
      <p>
        <RichText text="Read our <termsLink>privacy policy</termsLink> and <b>this</b>." parts={{ termsLink: (c) => <a href="/terms">{c}</a>, b: (c) => <strong>{c}</strong> }} />
      </p>,
    );
    expect(container.innerHTML).toBe('<p>Read our <a href="/terms">privacy policy</a> and <strong>this</strong>.</p>');
  });

  it('renders the text of a part it has no function for, and text without parts as it is', () => {
    const { container } = render(
      <p>
        <RichText text="<x>plain</x> end" parts={{}} />|<RichText text="no tags" parts={{}} />
      </p>,
    );
    expect(container.textContent).toBe('plain end|no tags');
  });
});
