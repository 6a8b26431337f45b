import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';

/** Every item of a user's partition (profile, transcripts, chunks), to show that a refusal changed nothing. */
export async function storedItems(userId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPk(userId) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
