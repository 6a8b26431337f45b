import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/**
 * A surface. `padded={false}` for cards that lay out their own inner sections; `highlighted`
 * for the one card of a group that is recommended (a primary edge and ring).
 */
export function Card({
  className,
  padded = true,
  highlighted = false,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { padded?: boolean; highlighted?: boolean }) {
  return (
    <div
      className={cn(
        'rounded-2xl border bg-surface shadow-sm',
        highlighted ? 'border-primary-line ring-2 ring-primary' : 'border-border',
        padded && 'p-6',
        className,
      )}
      {...rest}
    />
  );
}
