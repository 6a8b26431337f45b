import { useTranslation } from 'react-i18next';
import { NavLink, type NavLinkProps } from 'react-router';

/**
 * The header's navigation for signed-in users, each named by what the user finds there. `pro`: a
 * page only Pro users have; to anyone else its link carries the Pro tag and says so in its name.
 */
export const NAV_ITEMS = [
  { to: '/', label: 'header.transcribe', end: true, pro: false },
  { to: '/transcricoes-automaticas', label: 'header.recordings', end: false, pro: false },
  { to: '/transcricoes', label: 'header.saved', end: false, pro: true },
  { to: '/help', label: 'header.help', end: false, pro: false },
] as const;

/** One item of NAV_ITEMS as a link, in the classes of the menu it is in. */
export function NavItemLink({ item, isPro, className }: { item: (typeof NAV_ITEMS)[number]; isPro: boolean; className: NavLinkProps['className'] }) {
  const { t } = useTranslation();
  const label = t(item.label);
  const proOnly = item.pro && !isPro;
  return (
    <NavLink to={item.to} end={item.end} className={className} aria-label={proOnly ? t('header.proPage', { page: label }) : undefined}>
      {label}
      {proOnly && (
        <span aria-hidden="true" className="ml-1.5 rounded bg-warning-muted px-1 align-middle text-[0.65rem] font-bold tracking-wide text-warning-soft-fg">
          {t('transcribe.proTag')}
        </span>
      )}
    </NavLink>
  );
}
