import { FREE_AUTOSAVE_DAILY_CHARS } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { appendDelta, saveFull } from '../../db/automatic-transcriptions.ts';
import { meterAutosave } from '../../db/rate-limits.ts';
import { effectivePlan, planStatus } from '../../domain/plan.ts';
import { placeSegments, type StoredSegment } from '../../domain/text.ts';
import { badRequest, conflict, HttpError, notFound, tooMany } from '../../lib/errors.ts';
import { env } from '../../lib/env.ts';
import { route } from '../../lib/http.ts';

/**
 * A delta appends at `offset` (a retry writes no text but brings the metadata up to date, a gap
 * is 409 with the server's length); the full body (the whole transcript) also works. Segments that do not
 * match the text are refused before anything is read or written. A user sends at most
 * AUTOSAVE_SAVES_PER_MINUTE saves a minute (env), and a free user's saves carry at most FREE_AUTOSAVE_DAILY_CHARS
 * characters a UTC day (429 past either; the text waits on the device). The answer carries the
 * user's plan as it is now, so a recording page needs no plan polling while it saves.
 */
export const handler = route('autosaveSave', async ({ user, body }) => {
  const segments = 'offset' in body ? placed(body.text, body.offset, body.segments) : [];
  const chars = 'offset' in body ? body.text.length : body.fullTranscript.length;
  const metered = await meterAutosave(user.id, chars, env().AUTOSAVE_SAVES_PER_MINUTE, effectivePlan(user) === 'free' ? FREE_AUTOSAVE_DAILY_CHARS : undefined);
  if (!metered.allowed && metered.reason === 'quota') {
    throw tooMany("Today's transcription allowance of the free plan is used up. Upgrade to Pro, or continue tomorrow.", metered.secondsLeft, 'quota_exceeded');
  }
  if (!metered.allowed) throw tooMany('Too many saves. Please wait a moment.', metered.secondsLeft);
  const outcome =
    'offset' in body
      ? await appendDelta(user.id, body.sessionId, { ...body, segments })
      : await saveFull(user.id, body.sessionId, body);
  if (outcome.status === 'missing') throw notFound('Unknown session');
  if (outcome.status === 'edited') throw conflict('This transcription was edited after it was completed: autosave no longer writes to it.', 'edited');
  if (outcome.status === 'gap') {
    throw new HttpError(409, 'The server is missing earlier text: resend from its length.', { code: 'autosave_gap', length: outcome.length });
  }
  return { length: outcome.length, plan: planStatus(user) };
});

function placed(text: string, offset: number, segments: readonly Segment[]): StoredSegment[] {
  const result = placeSegments(text, offset, segments);
  if ('error' in result) throw badRequest(result.error, 'invalid_segments');
  return result.placed;
}
