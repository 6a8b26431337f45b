import { api } from '../../../lib/api';
import { promptNewPasskey } from '../../../lib/passkey-prompt';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { PasskeyList } from '@app/shared/schemas/passkeys';

export const passkeyKeys = { list: () => ['auth', 'passkeys'] as const };

/** The user's passkeys, recovery codes left and the second factor's switch. */
export function usePasskeys() {
  return useQuery({
    queryKey: passkeyKeys.list(),
    queryFn: ({ signal }) => api('listPasskeys', { signal }),
  });
}

/**
 * The profile's passkey actions; each refreshes the list. `currentPassword` goes with the ones that
 * need a recent sign-in when the server asked for it (code reauth_required).
 */
export function usePasskeyActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: passkeyKeys.list() });
  const add = useMutation({
    mutationFn: async ({ name, currentPassword }: { name: string; currentPassword?: string }) => {
      const ceremony = await api('startPasskeyRegistration', { body: { currentPassword } });
      const credential = await promptNewPasskey(ceremony.options);
      return api('addPasskey', { body: { flow: ceremony.flow, name, credential } });
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('removePasskey', { params: { id } }),
    onSettled: refresh,
  });
  const setRequired = useMutation({
    mutationFn: (body: { required: boolean; currentPassword?: string }) => api('setPasskeyRequirement', { body }),
    onSuccess: ({ required }) => client.setQueryData<PasskeyList>(passkeyKeys.list(), (list) => list && { ...list, required }),
    onSettled: refresh,
  });
  const regenerate = useMutation({
    mutationFn: (body: { currentPassword?: string }) => api('createRecoveryCodes', { body }),
    onSettled: refresh,
  });
  return { add, remove, setRequired, regenerate };
}
