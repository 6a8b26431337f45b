import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { CaptionStyle } from '@app/shared/caption-style';
import { LIVE_SHARE_SECONDS, LIVE_VIEWERS_MAX, type ProfanityMode } from '@app/shared/constants';
import type { ShareState } from '../domain/live.ts';
import type { AutomaticTranscriptionItem } from './automatic-transcriptions.ts';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys, liveViewerPrefix } from './keys.ts';
import { batchGetItems, queryPages } from './pages.ts';

/**
 * Live caption shares: `LIVE#<code>` holds whose automatic transcription the code shows
 * (owner and session ids, never sent to viewers), where its text begins (`startOffset`), until
 * when (`expiresAt`, also the TTL), how viewers' pages show profanity (`mask`) and the captions
 * (`style`, the owner's caption style then; absent when they had saved none) and whether its owner stopped it (`stoppedAt`, with the
 * session's length, language and last change then: `endOffset`, `endLanguage`, `endUpdatedAt`).
 * The text itself is the session's chunks, never copied. `USER#<userId>` / `LIVESESSION#<sessionId>`
 * points at the session's current share, so sharing again gives the same code while it lives,
 * and the user's links are one Query. Viewers heard in a minute are one string set per minute
 * under the share's partition (`VIEWERS#<epoch minute>`).
 */
/** The share item: who shares what, plus what decides what its link shows (ShareState, domain/live.ts). */
export interface LiveShare extends ShareState {
  code: string;
  userId: string;
  sessionId: string;
  createdAt: string;
  /** How viewers' pages show profanity (the owner's share mode when the share started); absent on older shares: as spoken. */
  mask?: ProfanityMode;
  /** The owner's caption style when the share started; absent when they had saved none (and on older shares). */
  style?: CaptionStyle;
}

/** 9 random bytes as base64url: 12 URL-safe characters, 72 bits; nothing about the user or session. */
export const newLiveCode = () => randomBytes(9).toString('base64url');

/** Not stopped and not expired. (The session's own completion ends it too: the caller checks that.) */
export const isLive = (share: LiveShare, now = nowSeconds()) => share.stoppedAt === undefined && share.expiresAt > now;

export async function getLiveShare(code: string, consistent = false): Promise<LiveShare | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.liveShare(code), ConsistentRead: consistent }));
  return out.Item as LiveShare | undefined;
}

/**
 * The live share of the caller's session: the current one while it lives (same code), else a
 * new one. The share item is written before the pointer to it, and the pointer only replaces the
 * one just read, so of two concurrent calls the second returns the first one's code.
 */
export async function startLiveShare(
  userId: string,
  sessionId: string,
  startOffset: number,
  mask: ProfanityMode,
  style?: CaptionStyle,
): Promise<LiveShare> {
  const pointerKey = keys.liveShareOfSession(userId, sessionId);
  for (let attempt = 0; attempt < 3; attempt++) {
    const pointer = (await db().send(new GetCommand({ TableName: tableName(), Key: pointerKey, ConsistentRead: true }))).Item as
      | { code: string }
      | undefined;
    if (pointer) {
      const current = await getLiveShare(pointer.code, true);
      if (current && isLive(current)) return current;
    }
    const share: LiveShare = { code: newLiveCode(), userId, sessionId, createdAt: nowIso(), expiresAt: nowSeconds() + LIVE_SHARE_SECONDS, startOffset, mask, ...(style && { style }) };
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.liveShare(share.code), type: 'liveShare', ...share },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...pointerKey, type: 'liveShareOfSession', code: share.code, expiresAt: share.expiresAt },
          ...(pointer
            ? { ConditionExpression: 'code = :old', ExpressionAttributeValues: { ':old': pointer.code } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        }),
      );
      return share;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // Another call shared the session first (its share unreachable by code, it dies by TTL): read again.
    }
  }
  throw new Error('live share: too much contention');
}

/** The code of the session's current share (its pointer), if it was ever shared and the pointer has not expired. */
export async function shareCodeOfSession(userId: string, sessionId: string): Promise<string | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.liveShareOfSession(userId, sessionId), ConsistentRead: true }));
  return (out.Item as { code?: string } | undefined)?.code;
}

/** The session as the share's viewers last see it once it is stopped. */
export type SessionAtStop = Pick<AutomaticTranscriptionItem, 'length' | 'language' | 'updatedAt'>;

/**
 * Stops the caller's share: the session's length, language and last change now are what viewers
 * see from then on, so what the speaker says after stopping is never shown, nor that they go on.
 * False when the code is not the caller's (or unknown). Stopping again changes nothing.
 */
export async function stopLiveShare(userId: string, code: string, session: SessionAtStop | undefined): Promise<boolean> {
  const now = nowIso();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.liveShare(code),
        UpdateExpression:
          'SET stoppedAt = if_not_exists(stoppedAt, :now), endOffset = if_not_exists(endOffset, :end), ' +
          'endLanguage = if_not_exists(endLanguage, :lang), endUpdatedAt = if_not_exists(endUpdatedAt, :updated)',
        ConditionExpression: 'userId = :user',
        ExpressionAttributeValues: {
          ':now': now,
          ':end': session?.length ?? 0,
          ':lang': session?.language ?? null,
          ':updated': session?.updatedAt ?? now,
          ':user': userId,
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** A share of the caller's with the session it shows (undefined once that session is deleted). */
export interface OwnShare {
  share: LiveShare;
  session: AutomaticTranscriptionItem | undefined;
}

/**
 * The caller's shares that have not expired, newest first, each with its session: one Query of
 * the user's share pointers, one batch read of the shares and their sessions.
 */
export async function listOwnShares(userId: string, now = nowSeconds()): Promise<OwnShare[]> {
  const pointers: { code: string; sessionId: string }[] = [];
  const input = {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'expiresAt > :now',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.liveShareOfSessionPrefix(), ':now': now },
    ProjectionExpression: 'SK, code',
  };
  for await (const page of queryPages(input)) {
    for (const item of page.Items ?? []) pointers.push({ code: item.code as string, sessionId: (item.SK as string).slice(keys.liveShareOfSessionPrefix().length) });
  }
  const items = await batchGetItems<Record<string, unknown>>(
    pointers.flatMap((p) => [keys.liveShare(p.code), keys.transcript(userId, 'AUTO', p.sessionId)]),
  );
  const shares = new Map(items.filter((i) => i.type === 'liveShare').map((i) => [i.code as string, i as unknown as LiveShare]));
  const sessions = new Map(items.filter((i) => i.type === 'autosaveSession').map((i) => [i.id as string, i as unknown as AutomaticTranscriptionItem]));
  return pointers
    .map((p) => shares.get(p.code))
    .filter((share): share is LiveShare => share !== undefined && share.userId === userId && share.expiresAt > now)
    .map((share) => ({ share, session: sessions.get(share.sessionId) }))
    .sort((a, b) => b.share.createdAt.localeCompare(a.share.createdAt));
}

const minuteOf = (seconds: number) => Math.floor(seconds / 60);

/**
 * Records a viewer in the current minute: one small item of its own (one write unit however
 * large the audience; the same viewer again that minute rewrites it), gone two minutes later.
 */
export async function recordViewer(code: string, viewerId: string, now = nowSeconds()): Promise<void> {
  const minute = minuteOf(now);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.liveViewer(code, minute, viewerId), type: 'liveViewer', expiresAt: (minute + 3) * 60 },
    }),
  );
}

/**
 * Distinct viewers heard in the current and the previous minute, at most LIVE_VIEWERS_MAX (one
 * Query of their keys; reading stops once that many are found).
 */
export async function countViewers(code: string, now = nowSeconds()): Promise<number> {
  const minute = minuteOf(now);
  const ids = new Set<string>();
  const from = liveViewerPrefix(minute - 1);
  const input = {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.liveShare(code).PK, ':lo': from, ':hi': `${liveViewerPrefix(minute)}~` },
    ProjectionExpression: 'SK',
  };
  for await (const page of queryPages(input)) {
    for (const item of page.Items ?? []) ids.add((item.SK as string).slice(from.length));
    if (ids.size >= LIVE_VIEWERS_MAX) return LIVE_VIEWERS_MAX;
  }
  return ids.size;
}
