import { createElement } from 'react';
import type { IconNode } from 'lucide';

/**
 * A lucide icon: its shapes come from the `lucide` package, one module per icon, drawn here the
 * way lucide-react draws them (24-unit grid, 2-unit round strokes in the text colour). Icons are
 * decorative: the control around one carries the name. Drawing them in this small component,
 * rather than through lucide-react's runtime, keeps the first load within its budget.
 */
export function Icon({ node, size = 24, className }: { node: IconNode; size?: number; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      {node.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs }))}
    </svg>
  );
}
