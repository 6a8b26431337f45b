import { readFileSync } from 'node:fs';
import { __unstable__loadDesignSystem as loadDesignSystem } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import { extendTailwindMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';

const src = `${import.meta.dirname}/../..`;
const css = readFileSync(`${src}/index.css`, 'utf8');

/** The colour tokens of the stylesheet's @theme (`--color-fg-muted` -> `fg-muted`). */
const tokens = [...css.matchAll(/^\s*--color-([\w-]+):/gm)].map((m) => m[1]!);

/**
 * Every utility class in web/src (but cn's config and this file), as Tailwind sees them: its
 * own scanner's candidates, kept when Tailwind generates CSS for them with the app's stylesheet.
 */
async function appClasses(): Promise<string[]> {
  const sources = [
    { base: src, pattern: '**/*', negated: false },
    { base: import.meta.dirname, pattern: 'cn.*', negated: true },
  ];
  const candidates = new Scanner({ sources }).scan();
  const design = await loadDesignSystem(css, { base: src });
  const generated = design.candidatesToCss(candidates);
  return candidates.filter((_, i) => generated[i] !== null).sort();
}

/** `sm:hover:bg-fg` -> ['sm:hover:', 'bg-fg']: the variants, and the utility after the last top-level colon. */
function splitVariants(className: string): [string, string] {
  let depth = 0;
  let cut = 0;
  for (let i = 0; i < className.length; i++) {
    const c = className[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ':' && depth === 0) cut = i + 1;
  }
  return [className.slice(0, cut), className.slice(cut)];
}

const classes = await appClasses();
/** tailwind-merge's full default config, knowing the colour tokens. */
const fullMerge = extendTailwindMerge({ cacheSize: 0, extend: { theme: { color: tokens } } });

describe('cn', () => {
  it('finds the app’s classes, variants and colour tokens', () => {
    expect(tokens).toEqual(expect.arrayContaining(['surface', 'fg', 'fg-muted', 'border', 'primary', 'success-soft', 'danger-line']));
    expect(classes.length).toBeGreaterThan(300);
    expect(classes).toEqual(expect.arrayContaining(['bg-surface', 'text-fg-muted', 'border-border', 'hover:bg-surface-muted', 'sm:px-6', 'px-4']));
  });

  it('merges every pair of the app’s classes as tailwind-merge’s full config does', () => {
    const byVariants = new Map<string, string[]>();
    for (const c of classes) {
      const [variants, utility] = splitVariants(c);
      byVariants.set(variants, [...(byVariants.get(variants) ?? []), c]);
      // Every utility also without its variants, so each meets every other one.
      if (variants) byVariants.set('', [...(byVariants.get('') ?? []), utility]);
    }
    const differences: string[] = [];
    for (const group of byVariants.values()) {
      const unique = [...new Set(group)];
      for (const a of unique) {
        for (const b of unique) {
          const expected = fullMerge(a, b);
          const actual = cn(a, b);
          if (actual !== expected) differences.push(`cn('${a}', '${b}') gives '${actual}', the full config '${expected}'`);
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('lets a later class for the same property win, colour tokens included', () => {
    expect(cn('px-2 text-fg', 'px-4 text-fg-muted')).toBe('px-4 text-fg-muted');
    expect(cn('bg-surface border-border', 'bg-primary-soft border-primary-line')).toBe('bg-primary-soft border-primary-line');
    expect(cn('bg-danger-soft text-danger-soft-fg', 'bg-success-soft text-success-soft-fg')).toBe('bg-success-soft text-success-soft-fg');
    expect(cn('bg-bar/90', 'bg-bar/95')).toBe('bg-bar/95');
  });

  it('keeps classes for different properties', () => {
    expect(cn('text-sm text-fg', 'font-medium')).toBe('text-sm text-fg font-medium');
    expect(cn('border border-border', 'border-dashed')).toBe('border border-border border-dashed');
    expect(cn('ring-2 ring-primary')).toBe('ring-2 ring-primary');
  });

  it('merges an axis with its sides and the shorthand with both', () => {
    expect(cn('px-4 py-2', 'p-3')).toBe('p-3');
    expect(cn('p-3', 'px-4')).toBe('p-3 px-4');
    expect(cn('pl-2 pr-8', 'px-4')).toBe('px-4');
    expect(cn('size-4', 'w-full')).toBe('size-4 w-full');
    expect(cn('w-full h-10', 'size-8')).toBe('size-8');
  });

  it('merges per variant', () => {
    expect(cn('hover:bg-surface-muted', 'hover:bg-primary-strong')).toBe('hover:bg-primary-strong');
    expect(cn('bg-surface', 'hover:bg-primary')).toBe('bg-surface hover:bg-primary');
    expect(cn('dark:text-amber-200 sm:px-6', 'dark:text-fg sm:px-8')).toBe('dark:text-fg sm:px-8');
    expect(cn('hidden', 'sm:flex', 'block')).toBe('sm:flex block');
  });

  it('skips empty values and keeps classes it does not know', () => {
    expect(cn('flex', false, null, undefined, '', 'gap-2')).toBe('flex gap-2');
    expect(cn('toaster', 'px-2', 'toaster-dark', 'px-3')).toBe('toaster toaster-dark px-3');
  });
});
