import { useTranslation } from 'react-i18next';
import { X } from 'lucide';
import { setDevMode, useDevMode } from '../lib/dev-mode';
import { Icon } from '../../../components/ui/icon';

/** The header's DEV MODE badge; its exit button clears the flag and the bypass token (the maintenance gate then checks again). */
export function DevModeBadge() {
  const { t } = useTranslation();
  const devMode = useDevMode();
  if (!devMode) return null;
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-amber-300 bg-warning-soft py-0.5 pl-2.5 pr-0.5 text-xs font-bold tracking-wide text-warning-soft-fg dark:border-amber-700">
      {t('site.devMode.badge')}
      <button
        type="button"
        onClick={() => setDevMode(false)}
        aria-label={t('site.devMode.exit')}
        title={t('site.devMode.exit')}
        className="inline-flex size-7 items-center justify-center rounded-full hover:bg-amber-200 dark:hover:bg-amber-900"
      >
        <Icon node={X} size={14} />
      </button>
    </span>
  );
}
