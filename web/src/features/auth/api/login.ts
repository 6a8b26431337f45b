import { useMutation } from '@tanstack/react-query';
import type { LoginRequest } from '@app/shared/schemas/auth';
import { api } from '../../../lib/api';
import { useSessionActions } from '../../../lib/auth';

export function useLogin() {
  const { startSession } = useSessionActions();
  return useMutation({
    mutationFn: (body: LoginRequest) => api('login', { body }),
    onSuccess: startSession,
  });
}
