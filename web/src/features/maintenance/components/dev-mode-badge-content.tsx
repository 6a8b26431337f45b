import { useTranslation } from 'react-i18next';
import { X } from 'lucide';
import { setDevMode } from '../lib/dev-mode';
import { Icon } from '../../../components/ui/icon';

/** The DEV MODE badge itself (dev-mode-badge.tsx loads it once dev mode is on). */
export default function DevModeBadgeContent() {
  const { t } = useTranslation();
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
