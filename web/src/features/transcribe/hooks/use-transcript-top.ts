import { useLayoutEffect, type RefObject } from 'react';

/** The CSS variable on the card: how far below the card's top the transcript begins, in px. */
const TRANSCRIPT_TOP = '--transcript-top';

/**
 * While `active`, keeps TRANSCRIPT_TOP on `card` at the distance from its top to the top of
 * `transcript`: what the card shows above the transcript (header, limit or counter, controls, the
 * share control once it has loaded), in this language and on this screen. The transcript then
 * sizes itself to the rest of the screen.
 */
export function useTranscriptTop(card: RefObject<HTMLElement | null>, transcript: RefObject<HTMLElement | null>, active: boolean): void {
  useLayoutEffect(() => {
    const outer = card.current;
    const inner = transcript.current;
    if (!active || !outer || !inner) return;
    const measure = () => outer.style.setProperty(TRANSCRIPT_TOP, `${Math.ceil(inner.getBoundingClientRect().top - outer.getBoundingClientRect().top)}px`);
    measure();
    // What comes or goes above the transcript changes the card's height.
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(outer);
    return () => {
      observer?.disconnect();
      outer.style.removeProperty(TRANSCRIPT_TOP);
    };
  }, [card, transcript, active]);
}
