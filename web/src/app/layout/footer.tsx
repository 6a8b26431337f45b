import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UI_LANGUAGES } from '@app/shared/constants';
import { isUiLanguage } from '../../lib/i18n';
import { useUiLanguage } from '../../lib/ui-language';

const linkClasses = 'rounded text-sm text-fg-subtle underline-offset-4 hover:text-fg hover:underline';

export function Footer() {
  const { t } = useTranslation();
  const { language, setLanguage } = useUiLanguage();
  const selectId = useId();
  return (
    <footer className="border-t border-border bg-bar">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="text-sm text-fg-muted">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <nav aria-label={t('footer.nav')}>
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              <li>
                <Link to="/terms" className={linkClasses}>
                  {t('footer.terms')}
                </Link>
              </li>
              <li>
                <Link to="/help" className={linkClasses}>
                  {t('footer.help')}
                </Link>
              </li>
              <li>
                <Link to="/pricing" className={linkClasses}>
                  {t('footer.pricing')}
                </Link>
              </li>
            </ul>
          </nav>
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm text-fg-subtle">
              {t('footer.language')}
            </label>
            <select
              id={selectId}
              value={language}
              onChange={(e) => isUiLanguage(e.target.value) && setLanguage(e.target.value)}
              className="h-9 rounded-md border border-input bg-surface px-2 text-sm text-fg"
            >
              {UI_LANGUAGES.map((lng) => (
                <option key={lng} value={lng} lang={lng}>
                  {t(`languages.${lng}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
    </footer>
  );
}
