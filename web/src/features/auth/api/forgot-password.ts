import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { useMutation } from '../../../lib/mutation';
import type { ForgotPasswordRequest } from '@app/shared/schemas/auth';
import { api } from '../../../lib/api';
import { getCaptchaToken } from '../../../lib/captcha';

export function useForgotPassword() {
  return useMutation({
    mutationFn: async (body: Omit<ForgotPasswordRequest, 'recaptchaToken'>) =>
      api('forgotPassword', { body: { ...body, recaptchaToken: await getCaptchaToken(CAPTCHA_ACTIONS.forgotPassword) } }),
  });
}
