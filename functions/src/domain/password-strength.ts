import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_SCORE } from '@app/shared/constants';

/**
 * Password strength by zxcvbn-ts with its common dictionaries (tens of thousands of the most used
 * passwords from breach corpora, diceware words, keyboard layouts): a password scoring below
 * PASSWORD_MIN_SCORE is too easy to guess. The user's own name and email count as guessable words.
 * The dictionaries are built on first use, once per container.
 */
let factory: ZxcvbnFactory | undefined;
const zxcvbn = () => (factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }));

/** Words of the user's own (name, email and its local part) that a password should not lean on. */
function userWords(inputs: readonly string[]): string[] {
  const words = new Set<string>();
  for (const input of inputs) {
    const value = input.trim().toLowerCase();
    if (!value) continue;
    words.add(value);
    for (const part of value.split(/[\s@._+-]+/)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** Whether `password` is too easy to guess (common, a pattern, or built on the user's own words). */
export function isWeakPassword(password: string, userInputs: readonly string[] = []): boolean {
  return zxcvbn().check(password, userWords(userInputs)).score < PASSWORD_MIN_SCORE;
}
