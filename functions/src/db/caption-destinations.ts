import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CaptionDestinationState, CaptionService } from '@app/shared/schemas/live';
import { db, isConditionFailure, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Caption destinations: `LIVE#<code> / DEST#<ulid>`, under the share's partition and expiring with
 * it (`expiresAt`, the share's). The item holds the secret URL (read by the relay and by nothing
 * that answers a viewer: the view reads the share item only) and the delivery state: `cursor`
 * (where in the session's text the next caption starts), `seq` (the last caption number the
 * service accepted), `inflight` (the caption being sent: its number, text and where it ends, kept
 * until the service accepts it, so a retry sends the same number and text, never a new one),
 * `lastSentAt` (epoch ms when the last request ended: the next leaves a second later at the earliest).
 */
export interface InflightCaption {
  seq: number;
  caption: string;
  /** The cursor once it is accepted. */
  to: number;
  /** When it was taken (epoch ms): YouTube's caption time, the same on every retry. */
  at: number;
}

export interface CaptionDestinationItem {
  id: string;
  code: string;
  service: CaptionService;
  url: string;
  userId: string;
  sessionId: string;
  createdAt: string;
  expiresAt: number;
  cursor: number;
  seq: number;
  paused: boolean;
  state: CaptionDestinationState;
  lastDeliveredAt?: string;
  error?: string;
  lastSentAt?: number;
  inflight?: InflightCaption;
}

/** The share's destinations in the order they were added (a consistent read for the relay). */
export async function listCaptionDestinations(code: string, consistent = false): Promise<CaptionDestinationItem[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.liveShare(code).PK, ':prefix': keys.captionDestinationPrefix() },
      ConsistentRead: consistent,
    }),
  );
  return (out.Items ?? []) as CaptionDestinationItem[];
}

export async function getCaptionDestination(code: string, id: string): Promise<CaptionDestinationItem | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.captionDestination(code, id), ConsistentRead: true }));
  return out.Item as CaptionDestinationItem | undefined;
}

export async function putCaptionDestination(item: CaptionDestinationItem): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.captionDestination(item.code, item.id), type: 'captionDestination', ...item },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/**
 * Pauses it, or resumes it from `cursor` (the words said from then on). A caption that was on its
 * way is dropped, its number counted as used, so no later caption reuses it. Undefined when gone.
 */
export async function setCaptionDestinationPaused(code: string, id: string, paused: boolean, cursor: number): Promise<CaptionDestinationItem | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.captionDestination(code, id),
        UpdateExpression: paused ? 'SET paused = :p, #state = :state' : 'SET paused = :p, #state = :state, #cursor = :cursor',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#state': 'state', ...(!paused && { '#cursor': 'cursor' }) },
        ExpressionAttributeValues: { ':p': paused, ':state': paused ? 'paused' : 'waiting', ...(!paused && { ':cursor': cursor }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = out.Attributes as CaptionDestinationItem;
    if (!paused && item.inflight) return await dropInflight(item);
    return item;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

async function dropInflight(item: CaptionDestinationItem): Promise<CaptionDestinationItem | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.captionDestination(item.code, item.id),
        UpdateExpression: 'SET seq = :seq REMOVE inflight',
        ConditionExpression: 'inflight.seq = :seq',
        ExpressionAttributeValues: { ':seq': item.inflight!.seq },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as CaptionDestinationItem;
  } catch (err) {
    if (isConditionFailure(err)) return getCaptionDestination(item.code, item.id);
    throw err;
  }
}

/** Removes it with its URL. False when it was not there. */
export async function deleteCaptionDestination(code: string, id: string): Promise<boolean> {
  try {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.captionDestination(code, id), ConditionExpression: 'attribute_exists(PK)' }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

// The relay's writes. Each is conditional on the state it read, so a destination removed, paused
// or moved on meanwhile is left alone (false).

async function conditional(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(input));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Takes the next caption: number seq + 1, text, end. Only if nothing is in flight and seq is still the one read. */
export const claimCaption = (d: CaptionDestinationItem, inflight: InflightCaption) =>
  conditional({
    TableName: tableName(),
    Key: keys.captionDestination(d.code, d.id),
    UpdateExpression: 'SET inflight = :f, #state = :sending',
    ConditionExpression: 'seq = :seq AND attribute_not_exists(inflight) AND paused = :no',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':f': inflight, ':sending': 'sending', ':seq': d.seq, ':no': false },
  });

/** Moves the cursor past text that holds no words (nothing to send). */
export const skipBlank = (d: CaptionDestinationItem, to: number) =>
  conditional({
    TableName: tableName(),
    Key: keys.captionDestination(d.code, d.id),
    UpdateExpression: 'SET #cursor = :to',
    ConditionExpression: 'seq = :seq AND attribute_not_exists(inflight) AND #cursor = :from',
    ExpressionAttributeNames: { '#cursor': 'cursor' },
    ExpressionAttributeValues: { ':to': to, ':seq': d.seq, ':from': d.cursor },
  });

/** The service accepted the caption in flight: its number becomes seq, the cursor moves past it. */
export const markDelivered = (d: CaptionDestinationItem, f: InflightCaption, sentAt: number) =>
  conditional({
    TableName: tableName(),
    Key: keys.captionDestination(d.code, d.id),
    UpdateExpression: 'SET seq = :seq, #cursor = :to, lastDeliveredAt = :at, lastSentAt = :sent, #state = :delivered REMOVE inflight, #error',
    ConditionExpression: 'inflight.seq = :seq',
    ExpressionAttributeNames: { '#cursor': 'cursor', '#state': 'state', '#error': 'error' },
    ExpressionAttributeValues: { ':seq': f.seq, ':to': f.to, ':at': new Date(sentAt).toISOString(), ':sent': sentAt, ':delivered': 'delivered' },
  });

/** A request for the caption in flight failed: `retrying` (tried again) or `failed` (refused), with the service's message. */
export const markFailed = (d: CaptionDestinationItem, f: InflightCaption, state: 'retrying' | 'failed', error: string, sentAt: number) =>
  conditional({
    TableName: tableName(),
    Key: keys.captionDestination(d.code, d.id),
    UpdateExpression: 'SET #state = :state, #error = :error, lastSentAt = :sent',
    ConditionExpression: 'inflight.seq = :seq',
    ExpressionAttributeNames: { '#state': 'state', '#error': 'error' },
    ExpressionAttributeValues: { ':state': state, ':error': error, ':sent': sentAt, ':seq': f.seq },
  });
