import { api } from '../../../lib/api';
import { useSessionActions } from '../../../lib/auth';
import { promptPasskey } from '../../../lib/passkey-prompt';
import { useMutation } from '../../../lib/mutation';
import type { PasskeyCeremony } from '@app/shared/schemas/passkeys';

/**
 * Signs in with a passkey: passwordless (no ceremony given: the server starts one and the browser
 * offers the site's passkeys), or a password sign-in's second step (its ceremony). The server sets
 * the session cookie, as for a password.
 */
export function usePasskeySignIn() {
  const { startSession } = useSessionActions();
  return useMutation({
    mutationFn: async (step?: PasskeyCeremony) => {
      const ceremony = step ?? (await api('startPasskeySignIn'));
      const credential = await promptPasskey(ceremony.options);
      return api('passkeySignIn', { body: { flow: ceremony.flow, credential } });
    },
    onSuccess: startSession,
  });
}

/** Finishes a password sign-in's second step with a recovery code. */
export function useRecoveryCodeSignIn() {
  const { startSession } = useSessionActions();
  return useMutation({
    mutationFn: ({ flow, code }: { flow: string; code: string }) => api('recoveryCodeSignIn', { body: { flow, code } }),
    onSuccess: startSession,
  });
}
