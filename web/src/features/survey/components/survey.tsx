import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { MessageCircle } from 'lucide';
import type { User } from '@app/shared/schemas/auth';
import { Dialog } from '../../../components/ui/dialog';
import { useMarkSurveyShown } from '../api/mark-survey-shown';
import { isQuietPage, rememberSurveyShown, SURVEY_DELAY_MS, SURVEY_RETRY_MS, surveyAlreadyShown } from '../lib/survey';
import { Icon } from '../../../components/ui/icon';

/**
 * The embedded survey for signed-in users: offered once per user (after a while on the site,
 * never over another dialog, the transcriber, the account forms or checkout), then always
 * reachable from the floating button.
 */
export default function Survey({ user, url }: { user: User; url: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const markShown = useMarkSurveyShown();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;

  const shown = surveyAlreadyShown(user);
  const show = useEffectEvent(() => {
    rememberSurveyShown(user.id);
    markShown.mutate();
    setOpen(true);
  });
  useEffect(() => {
    if (shown) return;
    let timer: ReturnType<typeof setTimeout>;
    const offer = () => {
      const busy = isQuietPage(pathRef.current) || document.querySelector('[role="dialog"], [role="alertdialog"]') !== null || document.hidden;
      if (busy) {
        timer = setTimeout(offer, SURVEY_RETRY_MS);
        return;
      }
      show();
    };
    timer = setTimeout(offer, SURVEY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [shown, user.id]);

  return (
    <aside aria-label={t('survey.region')}>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="fixed bottom-4 right-4 z-30 inline-flex items-center gap-2 rounded-full bg-primary px-4 py-2.5 text-sm font-semibold text-fg-inverse shadow-lg hover:bg-primary-strong"
      >
        <Icon node={MessageCircle} size={18} />
        {t('survey.open')}
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={t('survey.title')} description={t('survey.description')}>
        <iframe
          src={url}
          title={t('survey.frameTitle')}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
          className="h-[65vh] w-full rounded-lg border border-border-raised bg-white"
        />
      </Dialog>
    </aside>
  );
}
