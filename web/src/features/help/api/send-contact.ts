import { useMutation } from '../../../lib/mutation';
import type { ContactRequest } from '@app/shared/schemas/site';
import { api } from '../../../lib/api';

/** POST /contact: mailed to support with the sender as reply-to; 429 when rate-limited. */
export function useSendContact() {
  return useMutation({
    mutationFn: (body: ContactRequest) => api('contact', { body }),
  });
}
