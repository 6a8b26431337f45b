import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { formatElapsed, isoDuration } from '../lib/format-elapsed';
import type { CardStatus, TranscriptionController } from '../lib/transcription-controller';

/** The session clock, re-read a few times a second while recording (only this component re-renders). */
function useElapsed(controller: TranscriptionController, status: CardStatus, restored: boolean): number {
  const [elapsed, setElapsed] = useState(() => controller.elapsedMs());
  useEffect(() => {
    setElapsed(controller.elapsedMs());
    if (status !== 'recording') return;
    const id = setInterval(() => setElapsed(controller.elapsedMs()), 250);
    return () => clearInterval(id);
  }, [controller, status, restored]);
  return elapsed;
}

const badgeTone: Record<CardStatus, string> = {
  ready: 'bg-surface-muted text-fg-subtle',
  recording: 'bg-danger-soft text-danger-soft-fg',
  paused: 'bg-warning-soft text-warning-soft-fg',
  stopped: 'bg-surface-muted text-fg-subtle',
};
const dotTone: Record<CardStatus, string> = {
  ready: 'bg-emerald-500',
  recording: 'bg-red-600 motion-safe:animate-pulse',
  paused: 'bg-amber-500',
  stopped: 'bg-slate-400',
};

/** The recording badge and timer. */
export function SessionBadge({ controller, status, restored }: { controller: TranscriptionController; status: CardStatus; restored: boolean }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(controller, status, restored);
  return (
    <div className="flex items-center gap-2">
      <span role="status" className={cn('inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium', badgeTone[status])}>
        <span aria-hidden="true" className={cn('size-2 rounded-full', dotTone[status])} />
        {t(`transcribe.status.${status}`)}
      </span>
      <time
        dateTime={isoDuration(elapsed)}
        aria-label={`${t('transcribe.timerLabel')}: ${formatElapsed(elapsed)}`}
        data-testid="timer"
        className="font-mono text-sm tabular-nums text-fg-subtle"
      >
        {formatElapsed(elapsed)}
      </time>
    </div>
  );
}

/** The visitor's progress toward the listening limit. */
export function VisitorLimit({
  controller,
  status,
  limitMs,
}: {
  controller: TranscriptionController;
  status: CardStatus;
  limitMs: number;
}) {
  const { t } = useTranslation();
  const elapsed = Math.min(useElapsed(controller, status, false), limitMs);
  const seconds = Math.floor(elapsed / 1000);
  const total = Math.round(limitMs / 1000);
  const percent = (elapsed / limitMs) * 100;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-3 text-xs text-fg-muted">
        <span>{t('transcribe.limit.remaining', { seconds: total - seconds, total })}</span>
        <Link to="/register" className="font-medium text-primary-strong underline-offset-2 hover:underline">
          {t('transcribe.limit.signUp')}
        </Link>
      </div>
      <div
        role="progressbar"
        aria-label={t('transcribe.limit.label')}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={seconds}
        aria-valuetext={t('transcribe.limit.remaining', { seconds: total - seconds, total })}
        className="h-2 overflow-hidden rounded-full bg-border"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', percent >= 85 ? 'bg-red-600' : 'bg-primary')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
