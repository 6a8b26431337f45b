import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCURACY_TEXT, REFUND_DAYS, SUPPORT_RESPONSE_HOURS } from '@app/shared/constants';
import { formatDate } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { fill as fillWith } from '../../../lib/lazy-content';
import { PLAN_VALUES } from '../../../lib/plan-values';
import { termsContent, TERMS_UPDATED } from '../content/terms-content';

const VALUES: Record<string, string | number> = {
  ...PLAN_VALUES,
  accuracy: ACCURACY_TEXT,
  days: REFUND_DAYS,
  hours: SUPPORT_RESPONSE_HOURS,
};

// The text of the UI language starts loading with this page's chunk, not after it renders.
void termsContent.load(currentUiLanguage()).catch(() => undefined);

/** Fills the {{name}} placeholders of the terms text. */
const fill = (text: string) => fillWith(text, VALUES);

/** /terms: terms of use and privacy policy, in the UI language. */
export default function TermsPage() {
  const { t } = useTranslation();
  const language = currentUiLanguage();
  const content = termsContent.loaded(language) ?? use(termsContent.load(language));
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{t('app.pageTitle', { page: t('terms.title') })}</title>
      <h1 className="text-3xl font-bold tracking-tight text-fg sm:text-4xl">{t('terms.title')}</h1>
      <p className="mt-2 text-sm text-fg-muted">{t('terms.updated', { date: formatDate(TERMS_UPDATED, language) })}</p>
      <p className="mt-6 text-lg text-fg-subtle">{fill(content.intro)}</p>

      <nav aria-labelledby="terms-contents" className="mt-8 rounded-2xl border border-border bg-surface p-5">
        <h2 id="terms-contents" className="font-semibold text-fg">
          {t('terms.contents')}
        </h2>
        <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
          {content.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="rounded text-primary-strong underline-offset-4 hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      {content.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-10 scroll-mt-24">
          <h2 id={`${section.id}-title`} className="text-xl font-semibold text-fg">
            {section.title}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed text-fg-subtle">
            {section.paragraphs.map((p) => (
              <p key={p}>{fill(p)}</p>
            ))}
            {section.items && (
              <ul className="list-disc space-y-2 pl-5">
                {section.items.map((item) => (
                  <li key={item}>{fill(item)}</li>
                ))}
              </ul>
            )}
          </div>
        </section>
      ))}
    </article>
  );
}
