import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** A surface. `padded={false}` for cards that lay out their own inner sections. */
export function Card({ className, padded = true, ...rest }: HTMLAttributes<HTMLDivElement> & { padded?: boolean }) {
  return (
    <div
      className={cn(
        'rounded-2xl border border-border bg-surface shadow-sm',
        padded && 'p-6',
        className,
      )}
      {...rest}
    />
  );
}
