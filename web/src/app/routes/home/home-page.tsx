import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/auth';
import { TranscriptionCard } from '../../../features/transcribe/components/transcription-card';
import { VisitorCta } from './visitor-cta';

/* Live sharing loads once a signed-in user records: never with the home route itself. */
const LiveShareControl = lazy(() => import('../../../features/live/components/share-control'));

/** The home page: headline, the live transcription card and, for visitors, the call to action. */
export default function HomePage() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  return (
    <div className="mx-auto max-w-4xl px-4 py-5 sm:px-6 sm:py-14">
      <title>{t('app.name')}</title>
      <div className="text-center">
        <h1 className="text-balance text-2xl font-bold tracking-tight text-fg sm:text-5xl">{t('home.title')}</h1>
        <p className="mx-auto mt-2 max-w-2xl text-pretty text-sm text-fg-muted sm:mt-4 sm:text-lg">{t('home.subtitle')}</p>
      </div>
      <div className="mt-5 sm:mt-10">
        <TranscriptionCard share={LiveShareControl} />
      </div>
      {!isLoading && !user && <VisitorCta />}
    </div>
  );
}
