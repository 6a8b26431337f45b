import { render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useBottomInset, useBottomInsetVariable } from './bottom-inset';

function Pinned() {
  const ref = useRef<HTMLDivElement>(null);
  useBottomInset(ref);
  return <div ref={ref} />;
}

function Follower() {
  const ref = useRef<HTMLDivElement>(null);
  useBottomInsetVariable(ref);
  return <div ref={ref} />;
}

describe('bottom inset', () => {
  it('reaches an element that mounts after it was published and one already there, and leaves both when the pinned element goes', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 60.2 } as DOMRect);
    const early = render(<Follower />);
    const pinned = render(<Pinned />);
    const late = render(<Follower />);
    for (const view of [early, late]) expect((view.container.firstChild as HTMLElement).style.getPropertyValue('--bottom-inset')).toBe('61px');
    pinned.unmount();
    for (const view of [early, late]) expect((view.container.firstChild as HTMLElement).style.getPropertyValue('--bottom-inset')).toBe('');
    expect(document.documentElement.style.scrollPaddingBottom).toBe('');
  });

  it('stops following once unmounted', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 40 } as DOMRect);
    const follower = render(<Follower />);
    const element = follower.container.firstChild as HTMLElement;
    follower.unmount();
    const pinned = render(<Pinned />);
    expect(element.style.getPropertyValue('--bottom-inset')).toBe('');
    pinned.unmount();
  });
});
