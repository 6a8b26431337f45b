/**
 * Leaving the app (hosted checkout, customer portal). One object so tests can
 * replace these; jsdom cannot navigate.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  /** A blank tab opened inside the click (so popup blockers allow it), filled in later. */
  openBlankTab(): Window | null {
    return window.open('', '_blank');
  },
};
