import * as z from 'zod';
import { authenticationCredential, ceremonyFlow } from './passkeys.ts';
import { user, planStatusResponse } from './auth.ts';
import { captionStyle } from './caption-style.ts';
import { correctionSettings } from './corrections.ts';
import { liveLink } from './live.ts';
import { automaticTranscriptionSummary, idParams, transcriptionSummary } from './transcriptions.ts';

/**
 * "Your data": the export the profile's Download my data builds in the browser, page by page, and
 * the account's deletion. No answer of the export is large: the account's own part, then its
 * transcriptions' metadata EXPORT_LIST_LIMIT at a time, then each text EXPORT_TEXT_PAGE_CHARS at a
 * time, so the largest account is read in requests far inside API Gateway's time and size limits.
 */
export const EXPORT_LIST_LIMIT = 100;
/** Characters of one transcript's text an export page holds at most (plus the chunk that crosses it: 16,000 more). */
export const EXPORT_TEXT_PAGE_CHARS = 500_000;

export const EXPORT_KINDS = ['saved', 'automatic'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const exportKind = z.enum(EXPORT_KINDS);

/** A subscription as the account records it (Stripe's own records stay with Stripe). */
export const exportedSubscription = z.object({
  id: z.string(),
  status: z.enum(['active', 'ended']),
  periodEnd: z.iso.datetime().nullable(),
  renews: z.boolean(),
});

/** The account's own part of the export: profile, billing status, live links and settings. */
export const exportAccountResponse = z.object({
  exportedAt: z.iso.datetime(),
  profile: user,
  billing: planStatusResponse.extend({
    /** Whether a Stripe customer is on record (its id is Stripe's, not shown). */
    hasStripeCustomer: z.boolean(),
    subscriptions: z.array(exportedSubscription),
  }),
  liveLinks: z.array(liveLink),
  corrections: correctionSettings,
  captionStyle: captionStyle.nullable(),
});
export type ExportAccountResponse = z.infer<typeof exportAccountResponse>;

export const exportListQuery = z.object({
  kind: exportKind,
  /** The last id of the previous page: the next page starts after it (oldest first). */
  cursor: idParams.shape.id.optional(),
});
export const exportListResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), items: z.array(transcriptionSummary), cursor: z.string().nullable() }),
  z.object({ kind: z.literal('automatic'), items: z.array(automaticTranscriptionSummary), cursor: z.string().nullable() }),
]);
export type ExportListResponse = z.infer<typeof exportListResponse>;

export const exportTextParams = z.object({ kind: exportKind, id: idParams.shape.id });
export const exportTextQuery = z.object({
  /** Where the page starts: 0, then the previous page's `next`. */
  from: z.coerce.number().int().min(0).max(10_000_000).default(0),
  /** The version the first page answered: a later page of another version is 409 version_conflict (start the text again). */
  version: z.coerce.number().int().min(0).optional(),
});
/** A stored segment: start and end on the session clock (ms), where its text starts in the whole transcript and its length. */
export const exportedSegment = z.tuple([z.number().int(), z.number().int(), z.number().int().min(0), z.number().int().min(0)]);
export const exportTextResponse = z.object({
  version: z.number().int().min(0),
  from: z.number().int().min(0),
  text: z.string(),
  segments: z.array(exportedSegment),
  /** Where the next page starts; null: this was the last. */
  next: z.number().int().min(0).nullable(),
});
export type ExportTextResponse = z.infer<typeof exportTextResponse>;

/** Deleting the account needs the password again. */
export const deleteAccountRequest = z.object({
  password: z.string().min(1, 'Password is required').max(1024),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;
/** Or a passkey of the account instead of the password: the answer to a passwordless ceremony (startPasskeySignIn). */
export const deleteAccountWithPasskey = z.object({ passkey: z.object({ flow: ceremonyFlow, credential: authenticationCredential }) });
/** What the deletion route takes: the password, or a passkey. */
export const deleteAccountBody = z.union([deleteAccountRequest, deleteAccountWithPasskey]);
