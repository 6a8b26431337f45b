import * as z from 'zod';
import { PREVIEW_CHARS, SEGMENTS_MAX, TITLE_MAX } from '../constants.ts';
import { planStatusResponse, recognitionLanguage } from './auth.ts';

/** Longest transcript accepted in one request (characters); a 12-hour session is ~600k. */
export const TRANSCRIPT_MAX_CHARS = 3_000_000;
/** Longest autosave delta in one request; a longer backlog is sent in several. */
export const DELTA_MAX_CHARS = 300_000;
export { SEGMENTS_MAX };
export const SEARCH_MAX_CHARS = 100;
/** Longest session: a week of listening, in seconds. */
const DURATION_MAX = 7 * 24 * 3600;

/** A final recognition segment on the session clock (pauses excluded). */
export const segment = z.object({
  text: z.string().max(10_000),
  startMs: z.number().int().min(0),
  endMs: z.number().int().min(0),
  /** Where the text starts in the whole transcript (UTF-16 code units); the server checks it is there instead of searching. */
  at: z.number().int().min(0).max(TRANSCRIPT_MAX_CHARS).optional(),
});
export type Segment = z.infer<typeof segment>;

/** A request's segments: checked for count before any is parsed, so a flood is refused cheaply. */
const segments = z.array(segment).max(SEGMENTS_MAX, `At most ${SEGMENTS_MAX.toLocaleString('en-US')} segments per request`);
/** Segments are pieces of the text they come with: together they cannot hold more text than it. */
const segmentsFit = (text: string, list: readonly Segment[] = []) => {
  let chars = 0;
  for (const s of list) chars += s.text.length;
  return chars <= text.length;
};
const SEGMENTS_TOO_LONG = 'The segments hold more text than the transcript they belong to';

export const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM');
export const duration = z.number().min(0).max(DURATION_MAX);

export const listQuery = z.object({
  month: month.optional(),
  search: z.string().trim().max(SEARCH_MAX_CHARS, `Search at most ${SEARCH_MAX_CHARS} characters`).optional(),
  /** Minutes east of UTC for the month filter (e.g. -180 for Brasília); default UTC. */
  tzOffset: z.coerce.number().int().min(-840).max(840).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type ListQuery = z.infer<typeof listQuery>;

export const idParams = z.object({ id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/) });

// Saved transcriptions (Pro)

const title = z.string().trim().min(1, 'Title is required').max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`);

export const saveTranscriptionRequest = z.object({
  title,
  subject: z.string().trim().max(TITLE_MAX).optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  duration,
  fullTranscript: z.string().max(TRANSCRIPT_MAX_CHARS, 'Transcript is too long'),
  segments: segments.optional(),
  language: recognitionLanguage.optional(),
}).refine((r) => segmentsFit(r.fullTranscript, r.segments), { message: SEGMENTS_TOO_LONG, path: ['segments'] });
export type SaveTranscriptionRequest = z.input<typeof saveTranscriptionRequest>;

export const transcriptionSummary = z.object({
  _id: z.string(),
  title: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  timestamp: z.string(),
  duration: z.number(),
  language: recognitionLanguage.nullable(),
  /** First PREVIEW_CHARS characters of the text. */
  preview: z.string().max(PREVIEW_CHARS),
  length: z.number().int(),
  /** Counts its edits (0 until the first); an edit names the version it was made on. */
  version: z.number().int(),
});
export type TranscriptionSummary = z.infer<typeof transcriptionSummary>;

export const transcriptionList = z.object({
  transcriptions: z.array(transcriptionSummary),
  nextCursor: z.string().nullable(),
});

export const transcriptionDetail = transcriptionSummary.extend({
  fullTranscript: z.string(),
  segments: z.array(segment),
});
export type TranscriptionDetail = z.infer<typeof transcriptionDetail>;

/**
 * An edit of a saved or completed automatic transcription: the version it was made on (a stale
 * one is refused, 409 `version_conflict`, with the version now stored), and a new text, a new
 * title or both. Without segments, the server carries the timing of the old segments over to the
 * new text; segments sent must match it, as when saving.
 */
export const updateTranscriptionRequest = z
  .object({
    version: z.number().int().min(0),
    title: title.optional(),
    fullTranscript: z.string().max(TRANSCRIPT_MAX_CHARS, 'Transcript is too long').optional(),
    segments: segments.optional(),
  })
  .refine((r) => r.title !== undefined || r.fullTranscript !== undefined, { message: 'Send a new text, a new title or both' })
  .refine((r) => r.segments === undefined || r.fullTranscript !== undefined, { message: 'Segments come with the text they belong to', path: ['segments'] })
  .refine((r) => segmentsFit(r.fullTranscript ?? '', r.segments), { message: SEGMENTS_TOO_LONG, path: ['segments'] });
export type UpdateTranscriptionRequest = z.input<typeof updateTranscriptionRequest>;

// Autosave: the protocol that writes an automatic transcription while the user speaks

/**
 * `key`: the client's idempotency key for the session it is opening, made on the device before
 * any request; asking again with the same key gives the same session. Without one (a page
 * loaded before keys existed) every request opens a new session.
 */
export const sessionIdQuery = z.object({
  key: z
    .string()
    .regex(/^[\w-]{10,64}$/, 'key must be 10 to 64 letters, digits, hyphens or underscores')
    .optional(),
});
export const sessionIdResponse = z.object({ sessionId: z.string() });

const sessionId = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Unknown session');

/** The full body: the whole transcript each time. */
export const autosaveFullRequest = z.object({
  sessionId,
  fullTranscript: z.string().max(TRANSCRIPT_MAX_CHARS, 'Transcript is too long'),
  duration,
  language: recognitionLanguage,
});
/** The delta body: `text` appended at `offset` (UTF-16 code units, as JavaScript counts). */
export const autosaveDeltaRequest = z.object({
  sessionId,
  offset: z.number().int().min(0).max(TRANSCRIPT_MAX_CHARS),
  text: z.string().max(DELTA_MAX_CHARS, 'Delta is too long; send it in parts'),
  segments: segments.default([]),
  duration,
  language: recognitionLanguage,
}).refine((r) => segmentsFit(r.text, r.segments), { message: SEGMENTS_TOO_LONG, path: ['segments'] });
/** Either body; a refusal names the problem of the one the request looks like (a delta has `offset`). */
export const autosaveSaveRequest = z.union([autosaveDeltaRequest, autosaveFullRequest], {
  error: (issue) => {
    if (issue.code !== 'invalid_union') return undefined;
    const looksFull = typeof issue.input === 'object' && issue.input !== null && !('offset' in issue.input) && 'fullTranscript' in issue.input;
    const first = issue.errors[looksFull ? 1 : 0]?.[0];
    if (!first) return undefined;
    // zod's own messages do not name the field; ours do.
    const generic = /^(Invalid|Too (big|small)|Unrecognized)/.test(first.message);
    return generic && first.path.length ? `${first.path.join('.')}: ${first.message}` : first.message;
  },
});
export type AutosaveSaveRequest = z.input<typeof autosaveSaveRequest>;
/** `length`: how much of the transcript the server now holds. */
/**
 * The server's length of the transcript, and the user's plan as it is now: a recording page
 * learns of an upgrade, a cancellation or an expiry from its saves, without asking for the plan.
 */
export const autosaveSaveResponse = z.object({ length: z.number().int(), plan: planStatusResponse });

export const autosaveCompleteRequest = z.object({ sessionId });

// Automatic transcriptions (what autosave wrote), for every logged-in user

export const automaticListQuery = listQuery.extend({
  completed: z.enum(['true', 'false']).optional(),
});

export const automaticTranscriptionSummary = z.object({
  _id: z.string(),
  sessionId: z.string(),
  language: recognitionLanguage,
  isCompleted: z.boolean(),
  duration: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  preview: z.string().max(PREVIEW_CHARS),
  length: z.number().int(),
  /** Counts its edits (0 until the first); an edit names the version it was made on. */
  version: z.number().int(),
  /** Given by its owner when editing; absent until then. */
  title: z.string().optional(),
});
export type AutomaticTranscriptionSummary = z.infer<typeof automaticTranscriptionSummary>;

export const automaticTranscriptionList = z.object({
  transcriptions: z.array(automaticTranscriptionSummary),
  nextCursor: z.string().nullable(),
  /** The automatic transcriptions of this calendar month (UTC) the user has: a free account keeps FREE_AUTOMATIC_PER_MONTH. */
  keptThisMonth: z.number().int(),
});

export const automaticTranscriptionDetail = automaticTranscriptionSummary.extend({
  fullTranscript: z.string(),
  segments: z.array(segment),
});
