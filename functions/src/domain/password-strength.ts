import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { PASSWORD_MIN_SCORE } from '@app/shared/constants';

/**
 * Password strength by zxcvbn-ts with its common dictionaries (tens of thousands of the most used
 * passwords from breach corpora, diceware words, keyboard layouts): a password scoring below
 * PASSWORD_MIN_SCORE is too easy to guess. The user's own name and email count as guessable words.
 * The library and its dictionaries load on first use, once per container, so a function's cold
 * start does not pay for them before a password is checked.
 */
let factory: Promise<ZxcvbnFactory> | undefined;
function zxcvbn(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }]) => new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }),
  );
  return factory;
}

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
export async function isWeakPassword(password: string, userInputs: readonly string[] = []): Promise<boolean> {
  return (await zxcvbn()).check(password, userWords(userInputs)).score < PASSWORD_MIN_SCORE;
}
