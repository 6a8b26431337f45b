import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { RELAY_BATCH_SIZE, RELAY_FILTER_PATTERN, RELAY_PARALLELIZATION, RELAY_RETRY_ATTEMPTS } from '@app/shared/relay';

/**
 * What Lambda's event source mapping does for the caption relay on AWS, done locally against
 * DynamoDB Local's own stream (it implements the DynamoDB Streams API): polls each shard of the
 * table's stream, keeps the records RELAY_FILTER_PATTERN lets through, and calls the relay
 * handler (the same module or bundle Lambda runs) with them, in order per partition key, with
 * RELAY_PARALLELIZATION batches of a shard side by side as the mapping's ParallelizationFactor
 * (a partition key's records always in the same lane). A batch that reports a failed record runs again from that record, up to
 * RELAY_RETRY_ATTEMPTS times, as the mapping's ReportBatchItemFailures setting does.
 */
export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

type Pattern = readonly (string | { prefix: string })[] | { readonly [key: string]: Pattern };

/** Lambda's event filtering for the pattern syntax the relay uses: a list of values or `{prefix}` per leaf, objects nested. */
export function matchesFilter(pattern: Pattern, value: unknown): boolean {
  if (Array.isArray(pattern)) {
    return typeof value === 'string' && pattern.some((p) => (typeof p === 'string' ? p === value : value.startsWith(p.prefix)));
  }
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([k, p]) => matchesFilter(p as Pattern, (value as Record<string, unknown>)[k]));
}

export interface StreamRelay {
  /** Resolves once every record written so far has been handled (tests and benchmarks). */
  idle: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startStreamRelay(options: {
  endpoint: string;
  region: string;
  tableName: string;
  handler: () => Promise<StreamHandler>;
  pollMs?: number;
  retryMs?: number;
}): Promise<StreamRelay> {
  const config = { endpoint: options.endpoint, region: options.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const table = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const streamArn = (await table.send(new DescribeTableCommand({ TableName: options.tableName }))).Table?.LatestStreamArn;
  table.destroy();
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);
  // Lambda polls each shard of a DynamoDB stream four times a second.
  const pollMs = options.pollMs ?? 250;
  let stopped = false;
  let busy = 0;
  const waiting: (() => void)[] = [];

  const toLambda = (r: StreamRecord): DynamoDBRecord =>
    ({
      eventID: r.eventID,
      eventName: r.eventName,
      eventVersion: r.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: options.region,
      eventSourceARN: streamArn,
      dynamodb: r.dynamodb,
    }) as DynamoDBRecord;

  async function run(records: DynamoDBRecord[]): Promise<void> {
    let pending = records;
    for (let attempt = 0; pending.length > 0 && attempt <= RELAY_RETRY_ATTEMPTS && !stopped; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, options.retryMs ?? 1_000));
      const handler = await options.handler();
      let failedAt: string | undefined;
      try {
        failedAt = (await handler({ Records: pending }))?.batchItemFailures?.[0]?.itemIdentifier;
      } catch {
        failedAt = pending[0]?.dynamodb?.SequenceNumber;
      }
      if (!failedAt) return;
      const from = pending.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt);
      pending = from < 0 ? pending : pending.slice(from);
    }
  }

  const lanes = new Map<number, Promise<void>>();
  const laneOf = (partition: string) => {
    let h = 0;
    for (let i = 0; i < partition.length; i++) h = (h * 31 + partition.charCodeAt(i)) >>> 0;
    return h % RELAY_PARALLELIZATION;
  };
  const seen = new Set<string>();
  async function follow(shardId: string, type: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    seen.add(shardId);
    let last: string | undefined;
    const iteratorFrom = async (kind: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER') =>
      (
        await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: kind, ...(kind === 'AFTER_SEQUENCE_NUMBER' && { SequenceNumber: last }) }),
        )
      ).ShardIterator;
    let iterator = await iteratorFrom(type);
    let refused = 0;
    while (iterator && !stopped) {
      let out;
      try {
        out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: RELAY_BATCH_SIZE }));
      } catch (err) {
        // An iterator that expired or fell behind the shard's trim horizon (DynamoDB Local trims
        // when loaded): a new one after the last record seen, as Lambda's poller resumes from its checkpoint.
        if (stopped) return;
        const name = err instanceof Error ? err.name : '';
        if (name !== 'ExpiredIteratorException' && name !== 'TrimmedDataAccessException') throw err;
        // Twice in a row: from the shard's oldest record (handling one again is harmless: delivery goes by the destination's cursor).
        if (++refused > 1) last = undefined;
        await new Promise((r) => setTimeout(r, 50));
        iterator = await iteratorFrom(last ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON').catch(() => iteratorFrom('TRIM_HORIZON'));
        continue;
      }
      refused = 0;
      iterator = out.NextShardIterator;
      last = out.Records?.at(-1)?.dynamodb?.SequenceNumber ?? last;
      const records = (out.Records ?? []).map(toLambda).filter((r) => matchesFilter(RELAY_FILTER_PATTERN as unknown as Pattern, r));
      // As the mapping's ParallelizationFactor: batches of different lanes run side by side, a lane's in order.
      const byLane = new Map<number, DynamoDBRecord[]>();
      for (const r of records) {
        const lane = laneOf(r.dynamodb?.Keys?.PK?.S ?? '');
        byLane.set(lane, [...(byLane.get(lane) ?? []), r]);
      }
      for (const [lane, batch] of byLane) {
        busy++;
        const previous = lanes.get(lane) ?? Promise.resolve();
        lanes.set(
          lane,
          previous.then(() => run(batch)).finally(() => {
            busy--;
          }),
        );
      }
      if (records.length === 0) {
        if (busy === 0) waiting.splice(0).forEach((w) => w());
        await new Promise((r) => setTimeout(r, pollMs));
      }
    }
    // The shard closed: follow its children from their start.
    if (!stopped) void discover('TRIM_HORIZON');
  }

  async function discover(type: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
    for (const shard of shards) {
      if (!shard.ShardId || seen.has(shard.ShardId) || shard.SequenceNumberRange?.EndingSequenceNumber) continue;
      const shardId = shard.ShardId;
      follow(shardId, type).catch((err: unknown) => {
        if (stopped) return;
        console.error(`local stream relay: ${err instanceof Error ? err.message : String(err)}; following the shard again`);
        // As Lambda's poller does after a failure: the shard again, from its oldest record.
        setTimeout(() => {
          seen.delete(shardId);
          if (!stopped) void discover('TRIM_HORIZON');
        }, 500);
      });
    }
  }
  await discover('LATEST');

  return {
    idle: () => new Promise<void>((resolve) => waiting.push(resolve)),
    stop: async () => {
      stopped = true;
      waiting.splice(0).forEach((w) => w());
      streams.destroy();
    },
  };
}
