import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { useMutation } from '../../../lib/mutation';
import type { LoginRequest } from '@app/shared/schemas/auth';
import { api, ApiError } from '../../../lib/api';
import { useSessionActions } from '../../../lib/auth';
import { getCaptchaToken } from '../../../lib/captcha';
import { i18n } from '../../../lib/i18n';

/**
 * Signs in. After repeated attempts the server asks for the bot check (code
 * captcha_required): the same sign-in is then sent once more with a fresh bot-check token. An
 * account that requires a passkey answers its second step instead of the user: no session yet.
 */
export function useLogin() {
  const { startSession } = useSessionActions();
  return useMutation({
    mutationFn: async (body: Omit<LoginRequest, 'recaptchaToken'>) => {
      try {
        return await api('login', { body });
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'captcha_required') throw err;
      }
      let recaptchaToken: string;
      try {
        recaptchaToken = await getCaptchaToken(CAPTCHA_ACTIONS.login);
      } catch {
        throw new ApiError({ status: 0, code: 'captcha_unavailable', message: i18n.t('errors.codes.captcha_unavailable') });
      }
      return api('login', { body: { ...body, recaptchaToken } });
    },
    onSuccess: (out) => {
      if ('user' in out) startSession(out);
    },
  });
}
