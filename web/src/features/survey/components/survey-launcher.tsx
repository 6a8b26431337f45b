import { lazy, Suspense } from 'react';
import { useUser } from '../../../lib/auth';
import { withPageCopy } from '../../../lib/i18n';

/* The survey (dialog, iframe, copy) loads only for signed-in users, and only when one is configured. */
const Survey = lazy(withPageCopy(() => import('./survey')));

export function SurveyLauncher() {
  const user = useUser();
  const url = import.meta.env.VITE_SURVEY_URL;
  if (!user || !url) return null;
  return (
    <Suspense fallback={null}>
      <Survey user={user} url={url} />
    </Suspense>
  );
}
