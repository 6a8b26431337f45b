import { queryOptions } from '../../../lib/query';
import { api } from '../../../lib/api';

/** Query keys of billing, by factory. */
export const billingKeys = {
  all: ['billing'] as const,
  planStatus: () => ['billing', 'plan-status'] as const,
};

/** GET /api/auth/plan-status: the plan as the server knows it now (set by the Stripe webhook). */
export const planStatusQuery = () =>
  queryOptions({
    queryKey: billingKeys.planStatus(),
    queryFn: ({ signal }) => api('planStatus', { signal }),
    staleTime: 0,
  });
