import { use, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORT_RESPONSE_HOURS } from '@app/shared/constants';
import { CircleHelp, Mic, User } from 'lucide';
import { Card } from '../../../components/ui/card';
import { currentUiLanguage } from '../../../lib/i18n';
import { helpContent } from '../content/help-content';
import { ContactForm } from './contact-form';
import { Faq } from './faq';
import { Icon } from '../../../components/ui/icon';

// The guide and FAQ text of the UI language start loading with this page's chunk.
void helpContent.load(currentUiLanguage()).catch(() => undefined);

function QuickCard({ href, icon, title, body }: { href: string; icon: ReactNode; title: string; body: string }) {
  return (
    <li>
      <a
        href={href}
        className="flex h-full gap-4 rounded-2xl border border-border bg-surface p-5 shadow-sm transition-colors hover:border-primary-line hover:bg-indigo-50/40 dark:hover:bg-slate-800"
      >
        <span aria-hidden="true" className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary-strong">
          {icon}
        </span>
        <span>
          <span className="block font-semibold text-fg">{title}</span>
          <span className="mt-1 block text-sm text-fg-muted">{body}</span>
        </span>
      </a>
    </li>
  );
}

/** /help: quick cards, a short guide, the FAQ and the contact form. */
export default function HelpPage() {
  const { t } = useTranslation();
  const language = currentUiLanguage();
  const content = helpContent.loaded(language) ?? use(helpContent.load(language));
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{t('app.pageTitle', { page: t('help.title') })}</title>
      <h1 className="text-3xl font-bold tracking-tight text-fg sm:text-4xl">{t('help.title')}</h1>
      <p className="mt-3 text-lg text-fg-muted">{t('help.subtitle')}</p>

      <nav aria-label={t('help.topics')} className="mt-8">
        <ul className="grid gap-4 sm:grid-cols-3">
          <QuickCard href="#guide" icon={<Icon node={Mic} size={20} />} title={t('help.cards.guideTitle')} body={t('help.cards.guideBody')} />
          <QuickCard href="#faq" icon={<Icon node={CircleHelp} size={20} />} title={t('help.cards.faqTitle')} body={t('help.cards.faqBody')} />
          <QuickCard
            href="#contact"
            icon={<Icon node={User} size={20} />}
            title={t('help.cards.contactTitle')}
            body={t('help.cards.contactBody', { hours: SUPPORT_RESPONSE_HOURS })}
          />
        </ul>
      </nav>

      <section id="guide" aria-labelledby="guide-title" className="mt-14 scroll-mt-24">
        <h2 id="guide-title" className="text-2xl font-semibold text-fg">
          {content.guide.title}
        </h2>
        <ol className="mt-5 grid gap-4 sm:grid-cols-2">
          {content.guide.steps.map((step, i) => (
            <li key={i} className="flex gap-3 rounded-2xl border border-border bg-surface p-5">
              <span aria-hidden="true" className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-fg-inverse">
                {i + 1}
              </span>
              <span className="text-fg-subtle">{step}</span>
            </li>
          ))}
        </ol>
      </section>

      <section id="faq" aria-labelledby="faq-title" className="mt-14 scroll-mt-24">
        <h2 id="faq-title" className="mb-5 text-2xl font-semibold text-fg">
          {content.faq.title}
        </h2>
        <Faq faq={content.faq} />
      </section>

      <section id="contact" aria-labelledby="contact-title" className="mt-14 scroll-mt-24">
        <Card>
          <h2 id="contact-title" className="text-2xl font-semibold text-fg">
            {t('help.contact.title')}
          </h2>
          <p className="mt-2 text-fg-muted">{t('help.contact.subtitle', { hours: SUPPORT_RESPONSE_HOURS })}</p>
          <div className="mt-6">
            <ContactForm />
          </div>
        </Card>
      </section>
    </div>
  );
}
