import { useEffect, useId, useRef, useState } from 'react';
import { languageName } from '../../lib/format';
import { currentUiLanguage } from '../../lib/i18n';
import { useTranslationT } from './i18n';
import { getTranslatorApi, TARGET_LANGUAGES, translatorLanguage, type TranslatorInstance } from './translator';

export type TranslationStatus =
  | { kind: 'off' }
  | { kind: 'checking' }
  | { kind: 'downloading'; percent: number }
  | { kind: 'ready' }
  | { kind: 'same' }
  | { kind: 'unavailable' }
  | { kind: 'unsupported' }
  | { kind: 'error' };

/**
 * A language choice for captions translated on this device (the Translator API): choosing a
 * language checks availability() and creates the translator in the same click (create() needs
 * the user's gesture when the model must be downloaded), showing the download's progress.
 * `onTranslator` gets the translator once ready (null when off or impossible). Where the browser
 * has no Translator API, the choice is still offered and says so when made: the original shows.
 */
export function TranslationControl({
  source,
  onTranslator,
  label,
  className,
  selectClassName,
}: {
  /** The captions' language (a recognition locale), or null while unknown. */
  source: string | null;
  onTranslator: (translator: TranslatorInstance | null, target: string | null) => void;
  label: 'label' | 'secondLine';
  className?: string;
  selectClassName?: string;
}) {
  const t = useTranslationT();
  const id = useId();
  const ui = currentUiLanguage();
  const [target, setTarget] = useState('');
  const [status, setStatus] = useState<TranslationStatus>({ kind: 'off' });
  const attempt = useRef(0);
  const latest = useRef(onTranslator);
  latest.current = onTranslator;

  const choose = (next: string) => {
    const run = ++attempt.current;
    setTarget(next);
    latest.current(null, null);
    if (!next || !source) return setStatus({ kind: 'off' });
    const sourceLanguage = translatorLanguage(source);
    if (sourceLanguage === next) return setStatus({ kind: 'same' });
    const api = getTranslatorApi();
    if (!api) return setStatus({ kind: 'unsupported' });
    const current = () => run === attempt.current;
    setStatus({ kind: 'checking' });
    const languages = { sourceLanguage, targetLanguage: next };
    // create() is called in this click's task when it can be: a download needs the gesture.
    const created = api.create({
      ...languages,
      monitor(m) {
        m.addEventListener('downloadprogress', (e) => {
          if (current()) setStatus({ kind: 'downloading', percent: Math.round(((e as Event & { loaded: number }).loaded ?? 0) * 100) });
        });
      },
    });
    void api
      .availability(languages)
      .then((availability) => {
        if (availability === 'unavailable') throw Object.assign(new Error('unavailable'), { unavailable: true });
        return created;
      })
      .then(
        (translator) => {
          if (!current()) return translator.destroy?.();
          setStatus({ kind: 'ready' });
          latest.current(translator, next);
        },
        (err: unknown) => {
          created.then((tr) => tr.destroy?.(), () => undefined);
          if (current()) setStatus({ kind: (err as { unavailable?: boolean }).unavailable || (err instanceof DOMException && err.name === 'NotSupportedError') ? 'unavailable' : 'error' });
        },
      );
  };

  // A new source language (another session) starts over.
  useEffect(() => {
    attempt.current++;
    setTarget('');
    setStatus({ kind: 'off' });
    latest.current(null, null);
  }, [source]);

  const language = target ? languageName(target, ui) : '';
  const from = source ? languageName(translatorLanguage(source), ui) : '';
  return (
    <div className={className}>
      <label htmlFor={id} className="mr-2 text-sm">
        {t(label)}
      </label>
      <select id={id} value={target} onChange={(e) => choose(e.target.value)} className={selectClassName}>
        <option value="">{t('off')}</option>
        {TARGET_LANGUAGES.map((tag) => (
          <option key={tag} value={tag}>
            {languageName(tag, ui)}
          </option>
        ))}
      </select>
      {status.kind !== 'off' && (
        <p role="status" className="mt-1 text-sm opacity-90" data-translation={status.kind}>
          {status.kind === 'downloading' ? t('status.downloading', { percent: status.percent }) : t(`status.${status.kind}`, { language, from })}
        </p>
      )}
    </div>
  );
}
