import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { FREE_RECOGNITION_LANGUAGE, STORAGE_KEYS, UI_LANGUAGES } from '@app/shared/constants';
import { isRecognitionLanguage, type RecognitionLanguage } from '@app/shared/recognition-languages';
import type { User } from '@app/shared/schemas/auth';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { languagesByName, type NamedLanguage } from '../../../lib/recognition-language-options';
import { readStorage, writeStorage } from '../../../lib/storage';
import { useUiLanguage } from '../../../lib/ui-language';
import { openUpgrade } from '../../../lib/open-upgrade';
import { useUpdateProfile } from './api/update-profile';
import { Section } from './section';

export function LanguageSettings({ user }: { user: User }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useUiLanguage();
  const update = useUpdateProfile();
  // The profile's language (the user's choice, else their interface language's locale, so it follows
  // a switch of the interface language until they choose), or the one being saved.
  const [saving, setSaving] = useState<RecognitionLanguage | null>(null);
  const transcriptionLang = saving ?? user.transcriptionLang;
  const uiGroupLabel = useId();
  const uiGroupHint = useId();
  const selectId = useId();
  const selectHint = useId();
  const proHint = useId();
  // Free users transcribe in the free language only: the others show, disabled, with the Pro hint (as on the card).
  const isPro = user.plan === 'pro';
  const shownLang = isPro ? transcriptionLang : FREE_RECOGNITION_LANGUAGE;

  // Every recognition language, named in the interface language: the featured ones, then the others by name.
  const options = useMemo(() => languagesByName(language), [language]);
  const option = ({ tag, name }: NamedLanguage) => {
    const proOnly = !isPro && tag !== FREE_RECOGNITION_LANGUAGE;
    return (
      <option key={tag} value={tag} disabled={proOnly}>
        {proOnly ? t('profile.proLanguage', { language: name }) : name}
      </option>
    );
  };

  const changeTranscriptionLang = (next: RecognitionLanguage) => {
    const onDevice = readStorage(STORAGE_KEYS.transcriptionLang);
    setSaving(next);
    writeStorage(STORAGE_KEYS.transcriptionLang, next);
    update.mutate(
      { transcriptionLang: next },
      {
        onSuccess: () => {
          setSaving(null);
          toast.success(t('profile.updated'));
        },
        onError: () => {
          setSaving(null);
          writeStorage(STORAGE_KEYS.transcriptionLang, onDevice);
          toast.error(t('profile.saveError'), { description: t('profile.saveErrorDescription') });
        },
      },
    );
  };

  return (
    <Section title={t('profile.languages')}>
      <div className="space-y-8">
        <div>
          <h3 id={uiGroupLabel} className="text-sm font-medium text-fg-soft">
            {t('profile.uiLanguage')}
          </h3>
          <p id={uiGroupHint} className="mb-3 mt-1 text-sm text-fg-muted">
            {t('profile.uiLanguageHint')}
          </p>
          <div role="group" aria-labelledby={uiGroupLabel} aria-describedby={uiGroupHint} className="flex flex-wrap gap-2">
            {UI_LANGUAGES.map((lng) => {
              const active = lng === language;
              return (
                <button
                  key={lng}
                  type="button"
                  lang={lng}
                  aria-pressed={active}
                  onClick={() => setLanguage(lng)}
                  className={cn(
                    'h-10 rounded-lg border px-4 text-sm font-medium transition-colors',
                    active
                      ? 'border-primary bg-primary text-fg-inverse'
                      : 'border-input bg-surface text-fg-soft hover:bg-surface-muted',
                  )}
                >
                  {t(`languages.${lng}`)}
                </button>
              );
            })}
          </div>
        </div>
        <div className="space-y-1.5">
          <label htmlFor={selectId} className="block text-sm font-medium text-fg-soft">
            {t('profile.transcriptionLanguage')}
          </label>
          <div className="flex items-center gap-3">
            <select
              id={selectId}
              aria-describedby={isPro ? selectHint : `${selectHint} ${proHint}`}
              value={shownLang}
              disabled={update.isPending}
              onChange={(e) => isRecognitionLanguage(e.target.value) && changeTranscriptionLang(e.target.value)}
              className="h-11 w-full max-w-xs rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm disabled:opacity-60"
            >
              <optgroup label={t('profile.featuredLanguages')}>{options.filter((o) => o.featured).map(option)}</optgroup>
              <optgroup label={t('profile.allLanguages')}>{options.filter((o) => !o.featured).map(option)}</optgroup>
            </select>
            {update.isPending && <Spinner className="text-slate-500" />}
          </div>
          <p id={selectHint} className="text-sm text-fg-muted">
            {t('profile.transcriptionLanguageHint')}
          </p>
          {!isPro && (
            <p id={proHint} className="text-sm text-fg-muted">
              {t('transcribe.language.proHint')}{' '}
              <button type="button" onClick={openUpgrade} className="font-medium text-primary-strong underline-offset-4 hover:underline">
                {t('profile.upgradeForLanguages')}
              </button>
            </p>
          )}
        </div>
      </div>
    </Section>
  );
}
