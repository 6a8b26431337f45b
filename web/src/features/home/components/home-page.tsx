import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { MicIcon } from '../../../components/ui/icons';

/** The home page: headline and the place of the live transcription card (issue 3 builds the card). */
export default function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{t('app.name')}</title>
      <div className="text-center">
        <h1 className="text-balance text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{t('home.title')}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-pretty text-lg text-slate-600 dark:text-slate-400">{t('home.subtitle')}</p>
      </div>
      <section aria-labelledby="live-card-title" className="mt-10">
        <Card padded={false} className="overflow-hidden">
          <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4 dark:border-slate-800">
            <h2 id="live-card-title" className="font-semibold text-slate-900 dark:text-white">
              {t('home.cardTitle')}
            </h2>
            <span className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
              {t('home.cardStatus')}
            </span>
          </div>
          <div className="flex min-h-56 flex-col items-center justify-center gap-4 px-6 py-10 text-center">
            <span className="inline-flex size-16 items-center justify-center rounded-full bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
              <MicIcon width={28} height={28} />
            </span>
            <p className="text-slate-700 dark:text-slate-300">{t('home.cardPlaceholder')}</p>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('home.cardComingSoon')}</p>
          </div>
        </Card>
      </section>
    </div>
  );
}
