import { createAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { automaticPerMonth, effectivePlan } from '../../domain/plan.ts';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * The session the client's idempotency key names, opened by the first request with it. A free
 * account keeps automaticPerMonth('free') sessions a calendar month: past it, 403 and nothing
 * kept (the client transcribes live without saving).
 */
export const handler = route('autosaveSessionId', async ({ user, query }) => {
  const keepAtMost = automaticPerMonth(effectivePlan(user));
  const sessionId = await createAutomaticTranscription(user.id, query.key, { keepAtMost });
  if (sessionId === null) {
    throw forbidden(
      `The free plan keeps ${keepAtMost} automatic transcriptions a month, and this month's are kept already: this session is not saved. Delete one of this month's, or upgrade to Pro to keep every one.`,
      { code: 'automatic_limit', requiresPro: true },
    );
  }
  return { sessionId };
});
