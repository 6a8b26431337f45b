import type { TableAction } from './routes.ts';

/**
 * The caption relay: a function fed by the table's stream (KEYS_ONLY), through an event source
 * mapping whose filter lets only new chunks of automatic transcriptions through (`AUTOC#` sort
 * keys, INSERT), so shares' words reach their caption destinations
 * (functions/src/handlers/live/relay-captions.ts, docs/caption-destinations.md). The CDK stack
 * (infra/lib/relay.ts) and the local server's stream poller (functions/src/local/stream-relay.ts)
 * use this same pattern and these settings.
 */
export const RELAY_HANDLER = 'live/relay-captions';
/** Lambda's event filter pattern (its syntax: a list of values, or `{prefix}`). */
export const RELAY_FILTER_PATTERN = { eventName: ['INSERT'], dynamodb: { Keys: { SK: { S: [{ prefix: 'AUTOC#' }] } } } } as const;
/** What the relay does on the table: reads the share, its destinations, the session and its chunks; updates the destinations. */
export const RELAY_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'Query', 'UpdateItem'];
/** Records per invocation at most (a few seconds of many speakers' deltas), and no batching wait: a caption leaves as soon as it is seen. */
export const RELAY_BATCH_SIZE = 100;
/**
 * Batches of one shard processed side by side (Lambda's ParallelizationFactor, at most 10): a
 * partition key's records stay in order in one lane, so a destination that keeps failing delays
 * the speakers hashed to its lane, not the whole shard.
 */
export const RELAY_PARALLELIZATION = 10;
/** A batch whose delivery failed is tried again this many times (each run retries with backoff first), then left: the next words resume from the destination's cursor. */
export const RELAY_RETRY_ATTEMPTS = 5;
/** Records older than this are dropped unprocessed (the next words still carry what they held: delivery is by cursor). */
export const RELAY_MAX_RECORD_AGE_SECONDS = 600;
/** The relay function's timeout: one run's retries (CAPTION_RETRY_BUDGET_MS) plus the last requests. */
export const RELAY_TIMEOUT_SECONDS = 60;
