import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Search } from 'lucide';
import type { RecognitionLanguage } from '@app/shared/constants';
import { Icon } from '../../../components/ui/icon';

/* The search loads on the click. */
const LanguageSearch = lazy(() => import('./language-search'));

/**
 * More languages (Pro): a button beside the featured languages that opens the search over every
 * language Chrome recognizes below them; picking one, or closing, brings the focus back to it.
 */
export default function MoreLanguages({
  value,
  onChange,
  locked,
}: {
  value: RecognitionLanguage;
  onChange: (language: RecognitionLanguage) => void;
  locked: boolean;
}) {
  const { t } = useTranslation();
  const searchId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const shown = open && !locked;
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={shown}
        aria-controls={shown ? searchId : undefined}
        disabled={locked}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 shrink-0 items-center gap-1.5 rounded-full border border-input bg-surface px-3 text-sm font-medium text-fg-soft hover:bg-surface-muted disabled:opacity-50 sm:h-9"
      >
        <Icon node={Search} size={16} />
        {t('transcribe.languageSearch.open')}
      </button>
      {shown && (
        // Below the row of languages, the whole width of the card.
        <div id={searchId} className="basis-full">
          <Suspense fallback={null}>
            <LanguageSearch
              value={value}
              onPick={(tag) => {
                onChange(tag);
                close();
              }}
              onClose={close}
            />
          </Suspense>
        </div>
      )}
    </>
  );
}
