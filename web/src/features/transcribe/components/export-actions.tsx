import { useId, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Copy, Download } from 'lucide';
import { toast } from '../../../lib/toast';
import type { RecognitionLanguage } from '@app/shared/constants';
import { countWords } from '@app/shared/text-segments';
import { cn } from '../../../components/ui/cn';
import { EXPORT_FORMAT_LABELS, EXPORT_FORMATS, type ExportFormat } from '../../../lib/export-formats';
import type { TranscriptStore } from '../lib/transcript-store';
import { currentUiLanguage } from '../../../lib/i18n';
import { openUpgrade } from '../../../lib/open-upgrade';
import { Icon } from '../../../components/ui/icon';

/** A file name such as "transcript-2025-05-12-1403". */
function baseName(startedAt: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const d = startedAt;
  return `transcript-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
}

/**
 * The transcript's word count, by the words of its language (Intl.Segmenter: a Japanese or Thai
 * transcript counts its words though no space separates them), then TXT, SRT, VTT and Word
 * downloads and copy to clipboard (Pro). Visitors and free users see the same control with a Pro
 * hint; it opens the upgrade modal. The builders load on first use.
 */
export default function ExportActions({
  store,
  language,
  startedAt,
  isPro,
}: {
  store: TranscriptStore;
  language: RecognitionLanguage;
  startedAt: Date;
  isPro: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const hintId = useId();
  // Shown while no session records (paused or stopped): counted once per change of the text.
  const text = useSyncExternalStore(store.subscribe, () => store.text);
  const words = useMemo(() => countWords(text, language), [text, language]);

  const download = async (format: ExportFormat) => {
    if (!isPro) return openUpgrade();
    try {
      const { exportFile } = await import('../../../lib/transcript-export');
      await exportFile(
        format,
        {
          text: store.text,
          segments: store.segments,
          language,
          title: t('transcribe.export.untitled'),
          createdAt: startedAt.toISOString(),
          uiLanguage: currentUiLanguage(),
        },
        baseName(startedAt),
      );
    } catch {
      // The export code could not load (offline after a new deploy).
      toast.error(t('errors.codes.network'), { id: 'transcribe-export' });
    }
  };

  const copy = async () => {
    if (!isPro) return openUpgrade();
    try {
      await navigator.clipboard.writeText(store.text);
      toast.success(t('transcribe.export.copied'));
    } catch {
      toast.error(t('transcribe.export.copyFailed'));
    }
  };

  // Free and Pro looks are exclusive branches.
  const buttonClass = cn(
    'inline-flex h-9 items-center gap-1.5 rounded-lg border border-input bg-surface px-3 text-sm font-medium',
    isPro ? 'text-fg-soft shadow-sm hover:bg-surface-muted' : 'border-dashed text-fg-muted',
  );
  const pro = !isPro && (
    <span aria-hidden="true" className="rounded bg-warning-muted px-1 text-[0.65rem] font-bold text-warning-soft-fg">
      {t('transcribe.proTag')}
    </span>
  );
  const proProps = isPro ? {} : { 'aria-disabled': true, 'aria-describedby': hintId };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="w-full text-sm text-fg-muted">{t('transcribe.export.words', { count: words })}</p>
      <span id={labelId} className="text-sm font-medium text-fg-subtle">
        {t('transcribe.export.label')}
      </span>
      <div role="group" aria-labelledby={labelId} className="flex flex-wrap gap-2">
        {EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            aria-label={t(`transcribe.export.${format}`)}
            className={buttonClass}
            onClick={() => void download(format)}
            {...proProps}
          >
            <Icon node={Download} size={16} />
            {EXPORT_FORMAT_LABELS[format]}
            {pro}
          </button>
        ))}
        <button type="button" className={buttonClass} onClick={() => void copy()} {...proProps}>
          <Icon node={Copy} size={16} />
          {t('transcribe.export.copy')}
          {pro}
        </button>
      </div>
      {!isPro && (
        <p id={hintId} className="w-full text-xs text-fg-muted">
          {t('transcribe.export.proHint')}
        </p>
      )}
    </div>
  );
}
