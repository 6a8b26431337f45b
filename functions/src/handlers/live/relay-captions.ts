import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import {
  CAPTION_MAX_CHARS,
  CAPTION_RETRY_BUDGET_MS,
  CAPTION_RETRY_FIRST_MS,
  CAPTION_RETRY_MAX_MS,
  CAPTION_SEND_INTERVAL_MS,
} from '@app/shared/constants';
import { getAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import {
  claimCaption,
  getCaptionDestination,
  listCaptionDestinations,
  markDelivered,
  markFailed,
  skipBlank,
  type CaptionDestinationItem,
  type InflightCaption,
} from '../../db/caption-destinations.ts';
import { lastChunk, readTextFrom } from '../../db/chunk-store.ts';
import { chunkSkParts } from '../../db/keys.ts';
import { getLiveShare, isLive, shareCodeOfSession } from '../../db/live-shares.ts';
import { captionRequest, nextCaption, retryable, retryDelay } from '../../domain/caption-destinations.ts';
import { postCaption } from '../../lib/caption-delivery.ts';
import { log } from '../../lib/log.ts';

/**
 * The caption relay: the table's stream, filtered to new chunks of automatic transcriptions
 * (shared/src/relay.ts), runs this with each batch of them. For each session in the batch that is
 * shared with caption destinations, every destination that is not paused gets, in order, the text
 * from its cursor to the end of what the share shows: what piled up since the last caption goes as
 * one caption (at most CAPTION_MAX_CHARS; the rest follows), one request in flight per
 * destination and the next one CAPTION_SEND_INTERVAL_MS after the previous one's answer, each caption numbered once (a retry keeps its number and text). A
 * network error or a 5xx is retried with backoff (CAPTION_RETRY_FIRST_MS doubling up to
 * CAPTION_RETRY_MAX_MS) for CAPTION_RETRY_BUDGET_MS; past that the session's first record is
 * reported failed, and the platform runs the batch again from it. A 4xx or a redirect leaves the
 * caption in flight with the service's message: it goes again with the next words.
 *
 * Ordering and one run at a time per destination come from the stream: a session's chunks are in
 * its user's partition, whose records stay in order on one shard, and the event source mapping
 * processes a shard one batch at a time. The destination's conditional writes (db/caption-destinations.ts)
 * keep any overlap from sending a caption twice. Logs never carry a destination's URL.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const sessions = new Map<string, { userId: string; sessionId: string; first: DynamoDBRecord }>();
  for (const record of event.Records) {
    const pk = record.dynamodb?.Keys?.PK?.S;
    const sk = record.dynamodb?.Keys?.SK?.S;
    if (record.eventName !== 'INSERT' || !pk?.startsWith('USER#') || !sk?.startsWith('AUTOC#')) continue;
    const userId = pk.slice('USER#'.length);
    const sessionId = sk.slice('AUTOC#'.length).split('#')[0]!;
    if (chunkSkParts(sk).gen) continue; // an edit's chunks: a completed session, no longer live
    const key = `${userId}/${sessionId}`;
    if (!sessions.has(key)) sessions.set(key, { userId, sessionId, first: record });
  }
  const failed: string[] = [];
  await Promise.all(
    [...sessions.values()].map(async ({ userId, sessionId, first }) => {
      try {
        await relaySession(userId, sessionId);
      } catch (err) {
        log.error('caption relay: will try again', { error: err instanceof Error ? err.message : String(err) });
        if (first.dynamodb?.SequenceNumber) failed.push(first.dynamodb.SequenceNumber);
      }
    }),
  );
  // The platform retries from the lowest failed record.
  failed.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return { batchItemFailures: failed.slice(0, 1).map((itemIdentifier) => ({ itemIdentifier })) };
}

/** Delivery ran out of its retry budget: the batch is run again by the platform. */
class RetryLater extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Brings every destination of the session's share up to the end of what the share shows. */
export async function relaySession(userId: string, sessionId: string): Promise<void> {
  const code = await shareCodeOfSession(userId, sessionId);
  if (!code) return;
  const share = await getLiveShare(code, true);
  if (!share || share.userId !== userId || share.sessionId !== sessionId) return;
  // A stopped share shows nothing past where it stopped; an expired one nothing at all.
  if (share.stoppedAt === undefined && !isLive(share)) return;
  const [all, session, last] = await Promise.all([
    listCaptionDestinations(code, true),
    getAutomaticTranscription(userId, sessionId),
    share.stoppedAt === undefined ? lastChunk(userId, 'AUTO', sessionId) : undefined,
  ]);
  const destinations = all.filter((d) => !d.paused);
  if (destinations.length === 0 || !session) return;
  const end = share.stoppedAt !== undefined ? (share.endOffset ?? 0) : last!.end;
  const deadline = Date.now() + CAPTION_RETRY_BUDGET_MS;
  const results = await Promise.allSettled(destinations.map((d) => deliver(d, session.language, end, deadline)));
  const retry = results.find((r) => r.status === 'rejected');
  if (retry) throw (retry as PromiseRejectedResult).reason;
}

/** One destination: caption after caption until its cursor reaches `end`, or the service refuses one. */
async function deliver(first: CaptionDestinationItem, language: string, end: number, deadline: number): Promise<void> {
  let d = first;
  for (;;) {
    let f = d.inflight;
    if (!f) {
      if (d.cursor >= end) return;
      const read = await readTextFrom(d.userId, 'AUTO', d.sessionId, d.cursor, end, { maxChars: CAPTION_MAX_CHARS, maxChunks: 100 }, undefined, true);
      const text = read.text.slice(d.cursor - read.from, end - read.from);
      const { caption, consumed } = nextCaption(text, CAPTION_MAX_CHARS, language);
      if (consumed === 0) return;
      if (!caption) {
        if (!(await skipBlank(d, d.cursor + consumed))) return;
        d = { ...d, cursor: d.cursor + consumed };
        continue;
      }
      f = { seq: d.seq + 1, caption, to: d.cursor + consumed, at: Date.now() };
      if (!(await claimCaption(d, f))) return;
      d = { ...d, inflight: f, state: 'sending' };
    }
    const sentAt = await send(d, f, language, deadline);
    if (sentAt === undefined) return;
    d = { ...d, seq: f.seq, cursor: f.to, inflight: undefined, lastSentAt: sentAt };
  }
}

/**
 * Sends the caption in flight until the service accepts it (its time of sending), refuses it
 * (undefined), or the destination is paused or removed meanwhile (undefined). Throws RetryLater
 * when the next retry would pass the deadline.
 */
async function send(d: CaptionDestinationItem, f: InflightCaption, language: string, deadline: number): Promise<number | undefined> {
  let lastSentAt = d.lastSentAt ?? 0;
  for (let attempt = 1; ; attempt++) {
    const wait = lastSentAt + CAPTION_SEND_INTERVAL_MS - Date.now();
    if (wait > 0) await sleep(wait);
    const answer = await postCaption(captionRequest(d.service, d.url, f.seq, f.caption, language, new Date(f.at)));
    // Counted from the answer: the next request leaves a second after this one ended, so the
    // service never sees two within a second, whatever the network's delays.
    lastSentAt = Date.now();
    if (answer.ok) {
      await markDelivered(d, f, lastSentAt);
      return lastSentAt;
    }
    const again = retryable(answer.status);
    const message = answer.message ?? 'Failed';
    if (!(await markFailed(d, f, again ? 'retrying' : 'failed', message, lastSentAt))) return undefined;
    log.warn('caption relay: the service did not take a caption', { destination: d.id, service: d.service, status: answer.status, retry: again });
    if (!again) return undefined;
    const delay = Math.max(retryDelay(attempt, CAPTION_RETRY_FIRST_MS, CAPTION_RETRY_MAX_MS), CAPTION_SEND_INTERVAL_MS);
    if (Date.now() + delay > deadline) throw new RetryLater(`destination ${d.id}: ${message}`);
    await sleep(delay - CAPTION_SEND_INTERVAL_MS);
    const now = await getCaptionDestination(d.code, d.id);
    if (!now || now.paused || now.inflight?.seq !== f.seq) return undefined;
  }
}
