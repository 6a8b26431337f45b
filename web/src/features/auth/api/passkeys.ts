import { api } from '../../../lib/api';
import { promptNewPasskey } from '../../../lib/passkey-prompt';
import { useMutation, useQuery, useQueryClient } from '../../../lib/query';
import {
  addPasskeyResponse,
  passkeyCeremony,
  passkeyRequiredResponse,
  recoveryCodesResponse,
  type ManagePasskeysRequest,
  passkeyList,
  type PasskeyList,
} from '@app/shared/schemas/passkeys';

/** One change to the caller's passkeys; each action's answer is read with its own schema. */
const change = (body: ManagePasskeysRequest) => api('managePasskeys', { body });

export const passkeyKeys = { list: () => ['auth', 'passkeys'] as const };

/** The user's passkeys, recovery codes left and the second factor's switch. */
export function usePasskeys() {
  return useQuery({
    queryKey: passkeyKeys.list(),
    queryFn: async ({ signal }) => passkeyList.parse(await api('managePasskeys', { body: { action: 'list' }, signal })),
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
      const ceremony = passkeyCeremony.parse(await change({ action: 'options', currentPassword }));
      const credential = await promptNewPasskey(ceremony.options);
      return addPasskeyResponse.parse(await change({ action: 'add', flow: ceremony.flow, name, credential }));
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => change({ action: 'remove', id }),
    onSettled: refresh,
  });
  const setRequired = useMutation({
    mutationFn: async (body: { required: boolean; currentPassword?: string }) => passkeyRequiredResponse.parse(await change({ action: 'require', ...body })),
    onSuccess: ({ required }) => client.setQueryData<PasskeyList>(passkeyKeys.list(), (list) => list && { ...list, required }),
    onSettled: refresh,
  });
  const regenerate = useMutation({
    mutationFn: async (body: { currentPassword?: string }) => recoveryCodesResponse.parse(await change({ action: 'recovery-codes', ...body })),
    onSettled: refresh,
  });
  return { add, remove, setRequired, regenerate };
}
