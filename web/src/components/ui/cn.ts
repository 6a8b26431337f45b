/**
 * Joins class names, skipping empty ones. It does not merge: of two classes for the same
 * property (`text-fg` and `text-fg-muted`) the stylesheet's order decides, not their order
 * here. So a component's own classes and a caller's `className` never set the same property:
 * a look that varies is a prop (Button's `variant`, Alert's `tone`, Card's `highlighted`) or
 * one of exclusive branches, and `className` adds layout (margins, width, alignment).
 * (tailwind-merge would allow overrides, but it adds about 8 KB gzip to the first load, which
 * is at its budget.)
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
