import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Mic } from 'lucide';
import { Icon } from '../../components/ui/icon';

export function Logo() {
  const { t } = useTranslation();
  return (
    <Link to="/" aria-label={t('header.homeLink')} className="flex items-center gap-2 rounded-lg font-semibold text-fg">
      <span className="inline-flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
        <Icon node={Mic} size={18} />
      </span>
      <span className="text-base tracking-tight">{t('app.name')}</span>
    </Link>
  );
}
