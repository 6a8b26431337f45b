import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/** The table's stream: the keys of each change (the caption relay reads the items it needs). */
export const TABLE_STREAM = { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' } as const;

/**
 * Creates the single table (same shape as infra/lib/data.ts) when it does not exist.
 * Used by the local server and the tests; on AWS the CDK stack owns the table. `stream: false`
 * makes it without the stream (a benchmark that sends no captions: see LocalAppOptions.tableStream).
 */
export async function ensureTable(client: DynamoDBClient, name: string, { stream = true }: { stream?: boolean } = {}): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    // A table made before the stream was: turn it on (the caption relay reads it).
    if (stream && !Table?.StreamSpecification?.StreamEnabled) await client.send(new UpdateTableCommand({ TableName: name, StreamSpecification: TABLE_STREAM }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'GSI1PK', AttributeType: 'S' },
        { AttributeName: 'GSI1SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'GSI1',
          KeySchema: [
            { AttributeName: 'GSI1PK', KeyType: 'HASH' },
            { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      ...(stream && { StreamSpecification: TABLE_STREAM }),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } }),
  );
}
