import { useTranslation } from 'react-i18next';
import { cn } from '../../../components/ui/cn';

/** Finished or in progress (isCompleted). */
export function StatusBadge({ completed }: { completed: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium',
        completed
          ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
          : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
      )}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', completed ? 'bg-emerald-500' : 'bg-amber-500')} />
      {completed ? t('automatic.badgeFinished') : t('automatic.badgeInProgress')}
    </span>
  );
}
