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
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
        {subtitle && <p className="mt-2 text-sm text-fg-muted">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </Card>
      {footer && <div className="mt-6 text-center text-sm text-fg-subtle">{footer}</div>}
    </div>
  );
}

export const textLinkClasses =
  'rounded font-medium text-primary-strong underline-offset-4 hover:underline';
