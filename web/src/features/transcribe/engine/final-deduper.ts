/**
 * De-duplication of final results. Desktop Chrome sends each final once, but
 * Android Chrome repeats finals (the same phrase twice, or again after a
 * restart) and sends cumulative ones ("hello", then "hello world"). Finals
 * are compared word by word (characters for Chinese and Japanese), ignoring
 * case and punctuation; only what is new is kept.
 */

/** Repeats and cumulative extensions of the last final are recognised for this long after it. */
export const REPEAT_WINDOW_MS = 3_000;

const TOKEN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\s\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu;
const PUNCTUATION = /[\p{P}\p{S}]/gu;

interface Keyed {
  /** Comparison keys, one a word (or CJK character); punctuation-only tokens dropped. */
  keys: string[];
  /** Where each key's token starts in the original text. */
  starts: number[];
}

function keyed(text: string): Keyed {
  const keys: string[] = [];
  const starts: number[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const key = match[0].toLowerCase().replace(PUNCTUATION, '');
    if (!key) continue;
    keys.push(key);
    starts.push(match.index);
  }
  return { keys, starts };
}

/** Whether `prefix` is a proper prefix of `keys`. */
function isProperPrefix(prefix: readonly string[], keys: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length >= keys.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== keys[i]) return false;
  return true;
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

export class FinalDeduper {
  /** Keys of everything committed in the current recognition run (one recognizer instance). */
  private runKeys: string[] = [];
  /** Keys of the last final as received (not only its new part). */
  private lastKeys: string[] = [];
  private lastAt = Number.NEGATIVE_INFINITY;

  /** A new recognizer instance started (after a restart or resume). */
  newRun(): void {
    this.runKeys = [];
  }

  /** A new transcription. */
  reset(): void {
    this.runKeys = [];
    this.lastKeys = [];
    this.lastAt = Number.NEGATIVE_INFINITY;
  }

  /** The part of final `text` to commit at time `now`, or null when it holds nothing new. */
  accept(text: string, now: number): string | null {
    const { keys, starts } = keyed(text);
    if (keys.length === 0) return null;
    const recent = now - this.lastAt <= REPEAT_WINDOW_MS;

    let from = 0;
    if (recent && sameKeys(keys, this.lastKeys)) return null;
    if (isProperPrefix(this.runKeys, keys)) from = this.runKeys.length;
    else if (recent && isProperPrefix(this.lastKeys, keys)) from = this.lastKeys.length;

    this.lastKeys = keys;
    this.lastAt = now;
    const fresh = keys.slice(from);
    for (const k of fresh) this.runKeys.push(k);
    return from === 0 ? text.trim() : text.slice(starts[from]).trim();
  }
}
