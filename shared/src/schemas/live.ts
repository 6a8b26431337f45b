import * as z from 'zod';
import { LIVE_CODE_LENGTH } from '../constants.ts';
import { recognitionLanguage } from './auth.ts';
import { captionStyle } from './caption-style.ts';
import { profanityMode } from './corrections.ts';

/** Live caption sharing: a Pro user's running automatic transcription, followed by anyone with its code. */

export const liveCode = z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${LIVE_CODE_LENGTH}}$`));
export const liveCodeParams = z.object({ code: liveCode });

export const startLiveShareRequest = z.object({
  sessionId: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Unknown session'),
  /** Show what was said before sharing began too (by default a share starts at the words said from then on). */
  includeEarlier: z.boolean().default(false),
});
export const liveShareResponse = z.object({
  code: liveCode,
  /** When the link dies at the latest (ISO 8601). */
  expiresAt: z.iso.datetime(),
});

/**
 * The one spelling of a live view offset: `0` or a decimal integer without leading zeros, at most
 * 10 digits (a chunk key's offset). Anything else (`00`, `+0`, `0x0`, `1e3`) would be another cache
 * key for the same text, so CloudFront's viewer-request function (infra/lib/edge-functions.ts)
 * refuses it at the edge, and this schema again at the handler.
 */
export const LIVE_OFFSET_PATTERN = /^(0|[1-9]\d{0,9})$/;
export const LIVE_OFFSET_MESSAGE = 'after must be a character offset, without leading zeros';

/** `after`: the character offset (UTF-16 code units) the viewer already has; 0 by default. */
export const liveViewQuery = z.object({
  after: z.string().regex(LIVE_OFFSET_PATTERN, LIVE_OFFSET_MESSAGE).transform(Number).default(0),
});
export const LIVE_STATUSES = ['live', 'ended'] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];
export const liveViewResponse = z.object({
  /** 'ended': the speaker stopped sharing, the link expired or the session completed. */
  status: z.enum(LIVE_STATUSES),
  /**
   * The offset where `text` starts: `after`, or the start of the stored chunk `after` falls in
   * (every offset inside one chunk gets the same answer), never before where the share begins.
   * A viewer that asks from the `next` it was given gets `from` = `after`.
   */
  from: z.number().int().min(0),
  /** The transcript from `from` on (as much as one read returns: ask again from `next`). */
  text: z.string(),
  /** The offset to ask for next: where `text` ends. */
  next: z.number().int().min(0),
  language: recognitionLanguage,
  updatedAt: z.string(),
  /** How the viewer's page shows profanity: the speaker's mode for shares, set when the share started. */
  mask: profanityMode,
  /** The speaker's caption style when the share started; absent when they had saved none (the viewer's page uses the default). */
  style: captionStyle.optional(),
});
export type LiveView = z.infer<typeof liveViewResponse>;

/** One of the caller's live links, for the profile: live until stopped, expired, or its session completed. */
export const liveLink = z.object({
  code: liveCode,
  status: z.enum(LIVE_STATUSES),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type LiveLink = z.infer<typeof liveLink>;
export const liveLinksResponse = z.object({ links: z.array(liveLink) });
export const stopAllLiveSharesResponse = z.object({ stopped: z.number().int().min(0) });

/** A random id the viewer page makes once, sent every LIVE_VIEWER_PING_MS while it follows. */
export const liveViewerRequest = z.object({ viewerId: z.uuid('viewerId must be a UUID') });
export const liveViewersResponse = z.object({ viewers: z.number().int().min(0) });

/**
 * Caption destinations of a share (docs/caption-destinations.md): a YouTube Live stream's
 * closed-caption ingestion URL or a Zoom meeting's caption API token (a URL too). The URL is a
 * secret: no answer carries it, only its host and last four characters (`target`).
 */
export const CAPTION_SERVICES = ['youtube', 'zoom'] as const;
export type CaptionService = (typeof CAPTION_SERVICES)[number];
export const captionDestinationRequest = z.object({
  service: z.enum(CAPTION_SERVICES),
  url: z.string().trim().min(1, 'Paste the address the service gave you').max(2_000, 'That address is too long'),
});
export const captionDestinationParams = z.object({ code: liveCode, id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Unknown destination') });
export const updateCaptionDestinationRequest = z.object({ paused: z.boolean() });
/**
 * waiting: nothing to send yet; sending: a caption on its way (or waiting for its second);
 * delivered: everything said so far was accepted; retrying: the service failed (network or 5xx)
 * and the caption is tried again; failed: the service refused it (its message in `error`; tried
 * again with the next words); paused by the speaker.
 */
export const CAPTION_DESTINATION_STATES = ['waiting', 'sending', 'delivered', 'retrying', 'failed', 'paused'] as const;
export type CaptionDestinationState = (typeof CAPTION_DESTINATION_STATES)[number];
export const captionDestination = z.object({
  id: z.string(),
  service: z.enum(CAPTION_SERVICES),
  /** The host and the last four characters of the URL, to tell destinations apart; never the URL. */
  target: z.string(),
  state: z.enum(CAPTION_DESTINATION_STATES),
  createdAt: z.iso.datetime(),
  /** When the service last accepted a caption. */
  lastDeliveredAt: z.iso.datetime().optional(),
  /** The service's answer to the last failed request (status and its message). */
  error: z.string().optional(),
});
export type CaptionDestination = z.infer<typeof captionDestination>;
export const captionDestinationsResponse = z.object({ destinations: z.array(captionDestination) });
