import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CORRECTION_TEXT_MAX,
  CORRECTIONS_MAX,
  FREE_RECOGNITION_LANGUAGE,
  PARAGRAPH_SILENCE_MAX_SECONDS,
  PARAGRAPH_SILENCE_MIN_SECONDS,
  PROFANITY_MODES,
  type ProfanityMode,
  type RecognitionLanguage,
} from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { Button } from '../../../components/ui/button';
import { inputClasses } from '../../../components/ui/text-field';
import { describeError } from '../../../lib/api';
import { useCorrections } from '../../../lib/corrections-settings';
import { useSaveCorrections } from '../../../lib/save-corrections';
import { languageName } from '../../../lib/format';
import { baseLanguage } from '../../../lib/base-language';
import { VOICE_COMMANDS, type CommandOutput } from '../../../lib/text-corrections';
import { toast } from '../../../lib/toast';
import { useUiLanguage } from '../../../lib/ui-language';
import { Section } from './section';

const COMMAND_NAMES: Record<CommandOutput, 'newParagraph' | 'newLine' | 'comma' | 'fullStop' | 'questionMark' | 'colon'> = {
  '\n\n': 'newParagraph',
  '\n': 'newLine',
  ',': 'comma',
  '.': 'fullStop',
  '?': 'questionMark',
  ':': 'colon',
};
const SILENCES = Array.from({ length: PARAGRAPH_SILENCE_MAX_SECONDS - PARAGRAPH_SILENCE_MIN_SECONDS + 1 }, (_, i) => i + PARAGRAPH_SILENCE_MIN_SECONDS);

interface Row {
  key: number;
  phrase: string;
  replacement: string;
}
let nextKey = 0;
const rowsOf = (settings: CorrectionSettings): Row[] => settings.replacements.map((r) => ({ key: nextKey++, ...r }));

/** A row's problem, in the UI language: an empty phrase, or a phrase or replacement too long. */
type RowError = 'phraseRequired' | 'tooLong' | undefined;
const rowError = (row: Row): RowError => {
  if (!row.phrase.trim()) return 'phraseRequired';
  if (row.phrase.trim().length > CORRECTION_TEXT_MAX || row.replacement.trim().length > CORRECTION_TEXT_MAX) return 'tooLong';
  return undefined;
};

/**
 * Text corrections: the replacement list, the profanity modes of the speaker and of live shares,
 * spoken commands (those of the user's recognition language listed) and paragraphs by silence.
 * Saved whole with Save; they apply from the next result on.
 */
export function CorrectionsSettings({ user }: { user: User }) {
  const { settings, isLoading } = useCorrections();
  if (isLoading) return null;
  return <CorrectionsForm key={JSON.stringify(settings)} user={user} settings={settings} />;
}

function CorrectionsForm({ user, settings }: { user: User; settings: CorrectionSettings }) {
  const { t } = useTranslation();
  const { language: uiLanguage } = useUiLanguage();
  const save = useSaveCorrections();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(settings));
  const [profanity, setProfanity] = useState<ProfanityMode>(settings.profanity);
  const [shareProfanity, setShareProfanity] = useState<ProfanityMode>(settings.shareProfanity);
  const [voiceCommands, setVoiceCommands] = useState(settings.voiceCommands);
  const [paragraphSilence, setParagraphSilence] = useState<number | null>(settings.paragraphSilence);
  const [submitted, setSubmitted] = useState(false);
  const ids = { profanity: useId(), share: useId(), voice: useId(), voiceHint: useId(), silence: useId(), list: useId(), error: useId() };

  const recognition: RecognitionLanguage = user.plan === 'pro' ? user.transcriptionLang : FREE_RECOGNITION_LANGUAGE;
  const commands = VOICE_COMMANDS[baseLanguage(recognition)];
  const errors = rows.map(rowError);
  const invalid = errors.some(Boolean);
  const full = rows.length >= CORRECTIONS_MAX;

  const update = (key: number, patch: Partial<Row>) => setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    save
      .save({
        replacements: rows.map((r) => ({ phrase: r.phrase.trim(), replacement: r.replacement.trim() })),
        profanity,
        shareProfanity,
        voiceCommands,
        paragraphSilence,
      })
      .then(
        () => toast.success(t('profile.corrections.saved')),
        () => toast.error(t('profile.saveError'), { description: t('profile.corrections.saveErrorDescription') }),
      );
  };

  const modeSelect = (id: string, value: ProfanityMode, onChange: (mode: ProfanityMode) => void) => (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value as ProfanityMode)}
      className="h-11 w-full max-w-xs rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm"
    >
      {PROFANITY_MODES.map((mode) => (
        <option key={mode} value={mode}>
          {t(`profile.corrections.mode.${mode}`)}
        </option>
      ))}
    </select>
  );

  const serverError = save.error ? (describeError(save.error) ?? t('profile.corrections.saveErrorDescription')) : undefined;

  return (
    <Section title={t('profile.corrections.title')} description={t('profile.corrections.description')}>
      <form onSubmit={onSubmit} noValidate className="space-y-8" aria-describedby={serverError ? ids.error : undefined}>
        <fieldset>
          <legend id={ids.list} className="text-sm font-medium text-fg-soft">
            {t('profile.corrections.replacements')}
          </legend>
          <p className="mb-3 mt-1 text-sm text-fg-muted">{t('profile.corrections.replacementsHint', { max: CORRECTIONS_MAX })}</p>
          {rows.length === 0 && <p className="mb-3 text-sm text-fg-muted">{t('profile.corrections.empty')}</p>}
          <ul className="space-y-3">
            {rows.map((row, i) => {
              const error = submitted ? errors[i] : undefined;
              const errorId = `${ids.list}-row-${row.key}-error`;
              return (
                <li key={row.key} className="space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <input
                      value={row.phrase}
                      onChange={(e) => update(row.key, { phrase: e.target.value })}
                      aria-label={t('profile.corrections.phrase', { n: i + 1 })}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorId : undefined}
                      maxLength={CORRECTION_TEXT_MAX}
                      placeholder={t('profile.corrections.phrasePlaceholder')}
                      className={`${inputClasses} min-w-0 flex-1`}
                    />
                    <span aria-hidden="true" className="text-fg-muted">
                      →
                    </span>
                    <input
                      value={row.replacement}
                      onChange={(e) => update(row.key, { replacement: e.target.value })}
                      aria-label={t('profile.corrections.replacement', { n: i + 1 })}
                      maxLength={CORRECTION_TEXT_MAX}
                      placeholder={t('profile.corrections.replacementPlaceholder')}
                      className={`${inputClasses} min-w-0 flex-1`}
                    />
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('profile.corrections.removeRow', { n: i + 1 })}
                      onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
                    >
                      {t('profile.corrections.remove')}
                    </Button>
                  </div>
                  {error && (
                    <p id={errorId} className="text-sm font-medium text-danger">
                      {t(`profile.corrections.${error}`, { max: CORRECTION_TEXT_MAX })}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            disabled={full}
            onClick={() => setRows((list) => [...list, { key: nextKey++, phrase: '', replacement: '' }])}
          >
            {t('profile.corrections.add')}
          </Button>
          {full && <p className="mt-2 text-sm text-fg-muted">{t('profile.corrections.full', { max: CORRECTIONS_MAX })}</p>}
        </fieldset>

        <div className="grid gap-6 sm:grid-cols-2">
          <div className="space-y-1.5">
            <label htmlFor={ids.profanity} className="block text-sm font-medium text-fg-soft">
              {t('profile.corrections.profanity')}
            </label>
            {modeSelect(ids.profanity, profanity, setProfanity)}
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.share} className="block text-sm font-medium text-fg-soft">
              {t('profile.corrections.shareProfanity')}
            </label>
            {modeSelect(ids.share, shareProfanity, setShareProfanity)}
          </div>
        </div>

        <div className="space-y-2">
          <label className="flex items-center gap-3 text-sm font-medium text-fg-soft">
            <input
              id={ids.voice}
              type="checkbox"
              role="switch"
              checked={voiceCommands}
              onChange={(e) => setVoiceCommands(e.target.checked)}
              aria-describedby={ids.voiceHint}
              className="size-5"
            />
            {t('profile.corrections.voiceCommands')}
          </label>
          <div id={ids.voiceHint} className="text-sm text-fg-muted">
            {commands ? (
              <>
                <p>{t('profile.corrections.voiceCommandsHint', { language: languageName(recognition, uiLanguage) })}</p>
                <ul className="mt-1 list-inside list-disc">
                  {(Object.entries(commands) as [CommandOutput, readonly string[]][]).map(([output, phrases]) => (
                    <li key={output}>
                      <span lang={recognition}>{phrases.map((p) => `“${p}”`).join(', ')}</span>: {t(`profile.corrections.command.${COMMAND_NAMES[output]}`)}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{t('profile.corrections.noVoiceCommands', { language: languageName(recognition, uiLanguage) })}</p>
            )}
          </div>
        </div>

        <div className="space-y-1.5">
          <label htmlFor={ids.silence} className="block text-sm font-medium text-fg-soft">
            {t('profile.corrections.paragraphSilence')}
          </label>
          <select
            id={ids.silence}
            value={paragraphSilence === null ? 'off' : String(paragraphSilence)}
            onChange={(e) => setParagraphSilence(e.target.value === 'off' ? null : Number(e.target.value))}
            className="h-11 w-full max-w-xs rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm"
          >
            <option value="off">{t('profile.corrections.paragraphOff')}</option>
            {SILENCES.map((s) => (
              <option key={s} value={s}>
                {t('profile.corrections.seconds', { count: s })}
              </option>
            ))}
          </select>
        </div>

        {serverError && (
          <p id={ids.error} role="alert" className="text-sm font-medium text-danger">
            {serverError}
          </p>
        )}
        {submitted && invalid && (
          <p role="alert" className="text-sm font-medium text-danger">
            {t('profile.corrections.fixRows')}
          </p>
        )}
        <Button type="submit" loading={save.isPending}>
          {save.isPending ? t('profile.saving') : t('profile.corrections.save')}
        </Button>
      </form>
    </Section>
  );
}
