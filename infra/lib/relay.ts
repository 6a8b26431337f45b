import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, StartingPosition, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import {
  RELAY_BATCH_SIZE,
  RELAY_FILTER_PATTERN,
  RELAY_HANDLER,
  RELAY_MAX_RECORD_AGE_SECONDS,
  RELAY_PARALLELIZATION,
  RELAY_RETRY_ATTEMPTS,
  RELAY_TABLE_ACTIONS,
  RELAY_TIMEOUT_SECONDS,
} from '@app/shared/relay';
import { ApiFunction } from './api-function.ts';

export interface RelayProps {
  readonly table: ITableV2;
  /** The table's stream (KEYS_ONLY). */
  readonly streamArn: string;
  /** Every handler the stack bundles: the relay's bundle comes from the same esbuild run. */
  readonly bundledWith: readonly string[];
  readonly production: boolean;
}

/**
 * The caption relay (shared/src/relay.ts): a function with the project's defaults (ApiFunction)
 * fed by the table's stream through an event source mapping that lets only new chunks of automatic
 * transcriptions through (Lambda's event filtering: the function is not even invoked for the rest),
 * no batching wait, RELAY_PARALLELIZATION batches of a shard side by side (in order per partition
 * key: per user), a failed batch split in two and retried from the failed record
 * (ReportBatchItemFailures) RELAY_RETRY_ATTEMPTS times, records older than
 * RELAY_MAX_RECORD_AGE_SECONDS dropped. Its role: RELAY_TABLE_ACTIONS on the table and reading
 * the stream, nothing else (no secret, no mail).
 */
export class Relay extends Construct {
  readonly fn: LambdaFunction;
  readonly mapping: EventSourceMapping;

  constructor(scope: Construct, id: string, props: RelayProps) {
    super(scope, id);
    const fn = new ApiFunction(this, 'Function', {
      handler: RELAY_HANDLER,
      bundledWith: props.bundledWith,
      table: props.table,
      tableActions: RELAY_TABLE_ACTIONS,
      secrets: {},
      environment: { TABLE_NAME: props.table.tableName },
      production: props.production,
      timeoutSeconds: RELAY_TIMEOUT_SECONDS,
      description: 'Caption relay: sends live shares to their YouTube and Zoom destinations, fed by the table stream',
    }).fn;
    this.fn = fn;
    // What Lambda's poller needs on the stream, on the stream alone (ListStreams too, as AWS's example policy for a stream-fed function).
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        resources: [props.streamArn],
      }),
    );
    this.mapping = new EventSourceMapping(this, 'Stream', {
      target: fn,
      eventSourceArn: props.streamArn,
      startingPosition: StartingPosition.LATEST,
      batchSize: RELAY_BATCH_SIZE,
      maxBatchingWindow: Duration.seconds(0),
      parallelizationFactor: RELAY_PARALLELIZATION,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: RELAY_RETRY_ATTEMPTS,
      maxRecordAge: Duration.seconds(RELAY_MAX_RECORD_AGE_SECONDS),
      filters: [{ pattern: JSON.stringify(RELAY_FILTER_PATTERN) }],
    });
  }
}
