import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';

/** The frame of the account pages: a centred card with the page title. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <title>{t('app.pageTitle', { page: title })}</title>
      <Card padded={false} className="p-6 sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        {subtitle && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </Card>
      {footer && <div className="mt-6 text-center text-sm text-slate-700 dark:text-slate-300">{footer}</div>}
    </div>
  );
}

export const textLinkClasses =
  'rounded font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300';
