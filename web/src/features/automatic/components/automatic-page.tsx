import { useTranslation } from 'react-i18next';
import { SignedInPage } from '../../../components/signed-in-page';
import { AutomaticTranscriptions } from './automatic-transcriptions';

/** /transcricoes-automaticas: the sessions autosaved while the user spoke. Login required. */
export default function AutomaticPage() {
  const { t } = useTranslation();
  const title = <title>{t('app.pageTitle', { page: t('automatic.title') })}</title>;
  return (
    <SignedInPage title={title} loginRequired={{ title: t('automatic.loginRequiredTitle'), text: t('automatic.loginRequired'), button: t('automatic.loginButton') }}>
      {(user) => (
        <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
          {title}
          <AutomaticTranscriptions key={user.id} isPro={user.plan === 'pro'} />
        </div>
      )}
    </SignedInPage>
  );
}
