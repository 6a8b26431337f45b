import type { ProfanityMode } from '@app/shared/constants';
import { loadProfanityWords } from '../../../lib/profanity-words';
import { profanityFilter } from '../../../lib/text-corrections';

/**
 * The text of a live share as the viewer's page shows it: appended piece by piece to an element
 * (the text already shown is never written again), with the share's profanity mode applied by the
 * viewer's browser. A piece may end inside a word, so its last word stays in one text node of its
 * own, rewritten until the word is complete. Nothing shows until the share's mode is known (and
 * its word list loaded).
 */
export class MaskedText {
  private filter: ((text: string) => string) | null = null;
  private held = '';
  private readonly tail: Text;

  constructor(private readonly el: HTMLElement) {
    this.tail = document.createTextNode('');
    el.append(this.tail);
  }

  private modeSet = false;

  /**
   * The share's mode (every answer says it; the first one counts): the word list of `language`
   * loads when it masks. Answers the text this shows at once (what arrived meanwhile), else ''.
   */
  async setMode(mode: ProfanityMode, language: string): Promise<string> {
    if (this.modeSet) return '';
    this.modeSet = true;
    const words = mode === 'off' ? [] : await loadProfanityWords(language).catch(() => []);
    this.filter = profanityFilter(words, mode);
    const waiting = this.held;
    this.held = '';
    return this.append(waiting);
  }

  /** Adds a piece; answers the text it newly shows (for the live region), empty while the mode is unknown. */
  append(piece: string): string {
    this.held += piece;
    if (!this.filter) return '';
    const text = this.held;
    const cut = lastSpace(text);
    const done = text.slice(0, cut);
    this.held = text.slice(cut);
    const shown = done ? this.show(done) : '';
    if (shown) this.el.insertBefore(document.createTextNode(shown), this.tail);
    this.tail.data = this.show(this.held);
    return this.show(piece);
  }

  /** Filters the words, keeping the white space at both ends (hiding a word never glues two pieces). */
  private show(text: string): string {
    const match = /^(\s*)([\s\S]*?)(\s*)$/u.exec(text)!;
    return match[1]! + (match[2] ? this.filter!(match[2]) : '') + match[3]!;
  }
}

/** Just past the last white space of `text` (0: none). */
function lastSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/u.test(text[i]!)) return i + 1;
  return 0;
}
