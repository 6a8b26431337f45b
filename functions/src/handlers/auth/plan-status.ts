import { planStatus } from '../../domain/plan.ts';
import { route } from '../../lib/http.ts';

export const handler = route('planStatus', async ({ user }) => planStatus(user));
