import { useEffect, useRef, useState } from 'react';
import type { RecognitionLanguage } from '@app/shared/constants';
import { useTranslationT } from '../../../components/translation/i18n';
import { TranslationControl } from '../../../components/translation/translation-control';
import { PieceTranslator, targetDirection, type TranslatorInstance } from '../../../components/translation/translator';
import type { PieceFeed } from '../lib/piece-feed';

/**
 * A viewer's captions translated in their own browser (the Translator API: no server cost,
 * nothing sent anywhere): each new piece of final text is translated once, in order, and
 * appended; text shown before the choice is not translated again (only the last piece, for
 * context). Where the browser has no Translator API, the choice says so and the original stays.
 */
export default function ViewerTranslation({ feed, language }: { feed: PieceFeed; language: RecognitionLanguage | null }) {
  const t = useTranslationT();
  const [translator, setTranslator] = useState<{ instance: TranslatorInstance; target: string } | null>(null);
  const textRef = useRef<HTMLParagraphElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = textRef.current;
    if (el) el.textContent = '';
    if (!translator || !el) return;
    const pieces = new PieceTranslator(translator.instance, (_index, text) => {
      // Appended once: earlier translations are never rendered again.
      el.append(document.createTextNode(el.textContent ? ` ${text.trim()}` : text.trim()));
      const box = boxRef.current;
      if (box) box.scrollTop = box.scrollHeight;
    });
    let seen = Math.max(0, feed.pieces.length - 1);
    const onFeed = () => {
      if (feed.pieces.length < seen) {
        seen = 0;
        el.textContent = '';
      }
      for (; seen < feed.pieces.length; seen++) pieces.push(feed.pieces[seen]!);
    };
    onFeed();
    const unsubscribe = feed.subscribe(onFeed);
    return () => {
      unsubscribe();
      pieces.stop();
    };
  }, [feed, translator]);

  return (
    <div className="border-t border-slate-800 px-4 py-3 sm:px-8">
      <TranslationControl
        source={language}
        onTranslator={(instance, target) => setTranslator(instance && target ? { instance, target } : null)}
        label="label"
        selectClassName="h-10 rounded-lg border border-slate-600 bg-black px-2 text-sm text-white"
      />
      <div
        ref={boxRef}
        role="region"
        aria-label={t('translated')}
        hidden={!translator}
        lang={translator?.target}
        dir={translator ? targetDirection(translator.target) : undefined}
        className="mt-2 max-h-48 overflow-y-auto text-xl"
      >
        <p ref={textRef} className="whitespace-pre-wrap" />
      </div>
    </div>
  );
}
