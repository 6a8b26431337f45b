import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { api, describeError } from '../../../lib/api';
import { resetToVisitor } from '../../../lib/auth';
import { clearSessionUser } from '../../../lib/auth-token';
import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import { toast } from '../../../lib/toast';
import { logOutDevice, sendBeforeSignOut } from '../../../features/transcribe/device-data';
import { Section } from './section';

/**
 * Ends every session of the account, on every device and browser, this one too. The user's
 * unsent autosave text goes up first; once the server has ended the sessions, this device is
 * logged out as by the menu's Log out (its transcripts leave the device) and goes home. Refused
 * or offline, nothing changes and a toast says why.
 */
export function SignOutEverywhere({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: async () => {
      await sendBeforeSignOut(userId);
      await api('logoutEverywhere');
    },
    scope: { id: 'sign-out-everywhere' },
  });

  const run = () => {
    if (signOut.isPending) return;
    signOut.mutate(undefined, {
      onSuccess: () => {
        // The server has cleared this device's cookie too: only the page's own state is left.
        const forget = () => {
          clearSessionUser();
          resetToVisitor(queryClient);
        };
        void logOutDevice(userId, forget).then(() => {
          void navigate('/');
          toast.success(t('profile.sessions.done'), { description: t('profile.sessions.doneDescription') });
        });
      },
      onError: (error) => toast.error(t('profile.sessions.error'), { description: describeError(error) ?? t('profile.saveErrorDescription') }),
    });
  };

  return (
    <Section title={t('profile.sessions.title')} description={t('profile.sessions.description')}>
      <Button variant="secondary" onClick={run} loading={signOut.isPending}>
        {signOut.isPending ? t('profile.sessions.submitting') : t('profile.sessions.submit')}
      </Button>
    </Section>
  );
}
