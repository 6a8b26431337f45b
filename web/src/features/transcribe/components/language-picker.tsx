import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURED_RECOGNITION_LANGUAGES, FREE_RECOGNITION_LANGUAGE, type RecognitionLanguage } from '@app/shared/constants';
import { cn } from '../../../components/ui/cn';
import { languageName } from '../../../lib/format';
import { currentUiLanguage, withPageCopy } from '../../../lib/i18n';
import { openUpgrade } from '../../../lib/open-upgrade';

/* Pro's search over every language: its button, the search and their copy load for Pro users only (the home route stays small). */
const MoreLanguages = lazy(withPageCopy(() => import('./more-languages')));

const FEATURED: readonly RecognitionLanguage[] = FEATURED_RECOGNITION_LANGUAGES;

/**
 * The recognition language: the 8 featured languages as toggle buttons, or on small screens one
 * compact select (so Start stays on the first screen of a phone), plus the one chosen when it is
 * another. Pro users find any other language with More languages, a search over every one
 * Chrome recognizes (`language-search`). Visitors and free users have only the free language;
 * the others show a Pro tag, are aria-disabled (still focusable, so the hint can be read) and
 * open the upgrade modal; in the select, choosing one does the same.
 */
export function LanguagePicker({
  value,
  onChange,
  isPro,
  locked,
}: {
  value: RecognitionLanguage;
  onChange: (language: RecognitionLanguage) => void;
  isPro: boolean;
  /** A session is under way: the language cannot change. */
  locked: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const hintId = useId();
  const ui = currentUiLanguage();
  const isProOnly = (tag: RecognitionLanguage) => !isPro && tag !== FREE_RECOGNITION_LANGUAGE;
  // The chosen language shows among the featured ones when it is not one of them.
  const shown = FEATURED.includes(value) ? FEATURED : [...FEATURED, value];
  return (
    <div>
      <h3 id={labelId} className="mb-2 text-sm font-medium text-fg-subtle">
        {t('transcribe.language.label')}
      </h3>
      <div className="flex flex-wrap items-start gap-2">
        <select
          aria-labelledby={labelId}
          aria-describedby={isPro ? undefined : hintId}
          value={value}
          disabled={locked}
          onChange={(e) => {
            const tag = e.target.value as RecognitionLanguage;
            if (isProOnly(tag)) openUpgrade();
            else onChange(tag);
          }}
          className="h-10 min-w-0 flex-1 rounded-lg border border-input bg-surface px-3 text-base text-fg disabled:opacity-60 sm:hidden"
        >
          {shown.map((tag) => (
            <option key={tag} value={tag}>
              {isProOnly(tag) ? `${languageName(tag, ui)} · ${t('transcribe.proTag')}` : languageName(tag, ui)}
            </option>
          ))}
        </select>
        <div role="group" aria-labelledby={labelId} className="hidden min-w-0 flex-1 flex-wrap gap-2 sm:flex">
          {shown.map((tag) => {
            const proOnly = isProOnly(tag);
            const active = tag === value;
            return (
              <button
                key={tag}
                type="button"
                aria-pressed={active}
                aria-disabled={proOnly || undefined}
                aria-describedby={proOnly ? hintId : undefined}
                disabled={locked && !active}
                onClick={() => {
                  if (proOnly) openUpgrade();
                  else if (!locked) onChange(tag);
                }}
                className={cn(
                  'inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors disabled:opacity-50',
                  active
                    ? 'border-primary bg-primary text-fg-inverse'
                    : proOnly
                      ? 'border-dashed border-input bg-surface text-fg-muted'
                      : 'border-input bg-surface text-fg-soft hover:bg-surface-muted',
                )}
              >
                <span>{languageName(tag, ui)}</span>
                {proOnly && (
                  <span aria-hidden="true" className="rounded bg-warning-muted px-1 text-[0.65rem] font-bold tracking-wide text-warning-soft-fg">
                    {t('transcribe.proTag')}
                  </span>
                )}
              </button>
            );
          })}
        </div>
        {isPro && (
          <Suspense fallback={null}>
            <MoreLanguages value={value} onChange={onChange} locked={locked} />
          </Suspense>
        )}
      </div>
      {!isPro && (
        <p id={hintId} className="mt-2 text-xs text-fg-muted">
          {t('transcribe.language.proHint')}
        </p>
      )}
    </div>
  );
}
