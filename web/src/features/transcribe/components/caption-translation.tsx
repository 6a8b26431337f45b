import { useEffect, useState } from 'react';
import { PieceTranslator, targetDirection, type TranslatorInstance } from '../../../components/translation/translator';
import { TranslationControl } from '../../../components/translation/translation-control';
import { useTranslationT } from '../../../components/translation/i18n';
import type { TranscriptStore } from '../lib/transcript-store';

/** The second line keeps the newest this many characters of translation. */
const LINE_CHARS = 240;

/**
 * Caption mode's second line: the speaker's final segments translated on this device (the
 * Translator API) into the chosen language, each segment once, in order; text from before the
 * choice is not translated. Interim text is not translated (it changes until final).
 */
export function useSecondLine(store: TranscriptStore) {
  const [translator, setTranslator] = useState<{ instance: TranslatorInstance; target: string } | null>(null);
  const [line, setLine] = useState('');

  useEffect(() => {
    setLine('');
    if (!translator) return;
    const parts: string[] = [];
    const pieces = new PieceTranslator(translator.instance, (index, text) => {
      parts[index] = text;
      setLine(parts.join(' ').slice(-LINE_CHARS));
    });
    let seen = store.segments.length;
    const onChange = () => {
      const { segments } = store;
      // A cleared transcript (a new session) starts the line over.
      if (segments.length < seen) {
        seen = 0;
        parts.length = 0;
        setLine('');
      }
      for (; seen < segments.length; seen++) pieces.push(segments[seen]!.text);
    };
    const unsubscribe = store.subscribe(onChange);
    return () => {
      unsubscribe();
      pieces.stop();
    };
  }, [store, translator]);

  return {
    line,
    target: translator?.target ?? null,
    onTranslator: (instance: TranslatorInstance | null, target: string | null) => setTranslator(instance && target ? { instance, target } : null),
  };
}

export function SecondLineControl({ source, onTranslator }: { source: string; onTranslator: (instance: TranslatorInstance | null, target: string | null) => void }) {
  return (
    <TranslationControl
      source={source}
      onTranslator={onTranslator}
      label="secondLine"
      className="max-w-xs text-sm"
      selectClassName="h-11 rounded-lg border border-current/40 bg-transparent px-2 text-base [&>option]:text-black"
    />
  );
}

export function SecondLine({ text, target }: { text: string; target: string }) {
  const t = useTranslationT();
  return (
    <p
      role="region"
      aria-label={t('translated')}
      lang={target}
      dir={targetDirection(target)}
      data-testid="second-line"
      className="shrink-0 px-4 pb-6 text-2xl font-medium opacity-90 sm:px-10 sm:text-3xl"
    >
      {text}
    </p>
  );
}
