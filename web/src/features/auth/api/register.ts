import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { useMutation } from '../../../lib/mutation';
import type { RegisterRequest } from '@app/shared/schemas/auth';
import { api } from '../../../lib/api';
import { useSessionActions } from '../../../lib/auth';
import { getCaptchaToken } from '../../../lib/captcha';

/** Registers with a fresh bot-check token; a bot check that cannot run fails the mutation. */
export function useRegister() {
  const { startSession } = useSessionActions();
  return useMutation({
    mutationFn: async (body: Omit<RegisterRequest, 'recaptchaToken'>) =>
      api('register', { body: { ...body, recaptchaToken: await getCaptchaToken(CAPTCHA_ACTIONS.register) } }),
    onSuccess: startSession,
  });
}
