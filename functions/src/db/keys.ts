export type TranscriptKind = 'TRANS' | 'AUTO';

const LIVE_SESSION_PREFIX = 'LIVESESSION#';
const CAPTION_DESTINATION_PREFIX = 'DEST#';
const PASSKEY_PREFIX = 'PASSKEY#';

/**
 * The kinds of single-use token (db/single-use-tokens.ts): password-reset tokens, email
 * verification tokens, passkey (WebAuthn) challenges.
 */
export const SINGLE_USE_TOKEN_KINDS = ['RESET', 'VERIFY', 'WEBAUTHN'] as const;
export type SingleUseTokenKind = (typeof SINGLE_USE_TOKEN_KINDS)[number];

/** Every partition and sort key is built here and nowhere else (docs/dynamodb.md). */
export const keys = {
  user: (userId: string) => ({ PK: `USER#${userId}`, SK: 'PROFILE' }),
  /** The user's text corrections: their own item, so the user item every request reads stays small. */
  corrections: (userId: string) => ({ PK: `USER#${userId}`, SK: 'CORRECTIONS' }),
  /** The user's caption style: an item of its own, read only by the routes that need it. */
  captionStyle: (userId: string) => ({ PK: `USER#${userId}`, SK: 'CAPTIONSTYLE' }),
  emailClaim: (normalisedEmail: string) => ({ PK: `EMAIL#${normalisedEmail}`, SK: 'EMAIL' }),
  /** A single-use token or challenge, stored only as its SHA-256 (TTL). */
  singleUseToken: (kind: SingleUseTokenKind, tokenHash: string) => ({ PK: `${kind}#${tokenHash}`, SK: kind }),
  /** The user's pointer to a single-use token of theirs (same expiry), so deleting the account finds it. */
  singleUseTokenOfUser: (userId: string, kind: SingleUseTokenKind, tokenHash: string) => ({ PK: `USER#${userId}`, SK: `${kind}#${tokenHash}` }),
  /** A passkey of the user, by the SHA-256 of its credential id (a credential id may be longer than a sort key). */
  passkey: (userId: string, credentialHash: string) => ({ PK: `USER#${userId}`, SK: `${PASSKEY_PREFIX}${credentialHash}` }),
  passkeyPrefix: () => PASSKEY_PREFIX,
  /** The user's recovery codes (hashed), one item: each code's hash and when it was used. */
  recoveryCodes: (userId: string) => ({ PK: `USER#${userId}`, SK: 'RECOVERY' }),
  /** A session a logout ended, by its id (TTL: until its token would have expired). */
  revokedSession: (sid: string) => ({ PK: `REVOKED#${sid}`, SK: 'REVOKED' }),
  rateLimit: (scope: string, key: string) => ({ PK: `RATE#${scope}#${key}`, SK: 'RATE' }),
  siteSettings: () => ({ PK: 'SETTINGS', SK: 'SITE' }),
  /** A saved (TRANS) or automatic (AUTO) transcription's metadata item. */
  transcript: (userId: string, kind: TranscriptKind, id: string) => ({ PK: `USER#${userId}`, SK: `${kind}#${id}` }),
  /**
   * One chunk of its text, ordered by the offset where it starts. An edit writes its chunks under
   * a generation of its own (`#<gen>` after the offset), so the old ones stay whole until the
   * metadata's layout names the new ones (domain/text.ts ChunkLayout); the chunks the transcript
   * was first written with have none.
   */
  transcriptChunk: (userId: string, kind: TranscriptKind, id: string, offset: number, gen = '') => ({
    PK: `USER#${userId}`,
    SK: `${kind}C#${id}#${String(offset).padStart(10, '0')}${gen && `#${gen}`}`,
  }),
  transcriptChunkPrefix: (kind: TranscriptKind, id: string) => `${kind}C#${id}#`,
  /** The automatic transcription a client's idempotency key opened (TTL). */
  autosaveKey: (userId: string, key: string) => ({ PK: `USER#${userId}`, SK: `AUTOKEY#${key}` }),
  transcriptSkBounds: (kind: TranscriptKind, lo: string, hi: string) => ({ lo: `${kind}#${lo}`, hi: `${kind}#${hi}` }),
  chunkSkBounds: (kind: TranscriptKind, lo: string, hi: string) => ({ lo: `${kind}C#${lo}`, hi: `${kind}C#${hi}#~` }),
  userPk: (userId: string) => `USER#${userId}`,
  /** A processed Stripe event (idempotency record, TTL). */
  stripeEvent: (eventId: string) => ({ PK: `STRIPE_EVENT#${eventId}`, SK: 'EVENT' }),
  /** GSI1 key on the user item: finds the user by Stripe customer id. */
  stripeCustomer: (customerId: string) => ({ GSI1PK: `STRIPE#${customerId}`, GSI1SK: 'USER' }),
  /** One site visit, partitioned by UTC day (`yyyy-mm-dd`), sorted by ulid. */
  analyticsVisit: (day: string, id: string) => ({ PK: `ANALYTICS#${day}`, SK: id }),
  analyticsPk: (day: string) => `ANALYTICS#${day}`,
  /** One contact-form message, partitioned by UTC month (`yyyy-mm`), sorted by ulid. */
  contactMessage: (month: string, id: string) => ({ PK: `CONTACT#${month}`, SK: id }),
  contactPk: (month: string) => `CONTACT#${month}`,
  /** A live caption share, found by its code (TTL). */
  liveShare: (code: string) => ({ PK: `LIVE#${code}`, SK: 'LIVE' }),
  /**
   * The live share of one automatic transcription: its code, so sharing again gives the same link
   * (TTL). Under the user's partition, so the user's live links are one Query.
   */
  liveShareOfSession: (userId: string, sessionId: string) => ({ PK: `USER#${userId}`, SK: `${LIVE_SESSION_PREFIX}${sessionId}` }),
  liveShareOfSessionPrefix: () => LIVE_SESSION_PREFIX,
  /**
   * A caption destination of a share (YouTube Live, Zoom): its secret URL and delivery state,
   * under the share's partition (TTL: the share's), in the order they were added.
   */
  captionDestination: (code: string, id: string) => ({ PK: `LIVE#${code}`, SK: `${CAPTION_DESTINATION_PREFIX}${id}` }),
  captionDestinationPrefix: () => CAPTION_DESTINATION_PREFIX,
  /** One viewer heard in one minute; a code's viewers of a minute sort together, the minutes in order. */
  liveViewer: (code: string, minute: number, viewerId: string) => ({ PK: `LIVE#${code}`, SK: `${liveViewerPrefix(minute)}${viewerId}` }),
};

/** Where a chunk starts and its generation ('' for the chunks first written), from its sort key (keys.transcriptChunk). */
export function chunkSkParts(sk: string): { offset: number; gen: string } {
  const [, , offset = '0', gen = ''] = sk.split('#');
  return { offset: Number(offset), gen };
}

/** The sort key prefix of a code's viewers heard in `minute` (keys.liveViewer). */
export const liveViewerPrefix = (minute: number) => `VIEWER#${String(minute).padStart(10, '0')}#`;
