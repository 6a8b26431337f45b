import { expect } from 'vitest';

/** The placeholders (`{{name}}`) and tags (`<link>`) of a text, sorted: what every translation must keep. */
export const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

/** Fails on an empty text; otherwise its tokens. */
export const nonEmpty = (text: string) => {
  expect(text.trim()).not.toBe('');
  return tokens(text);
};
