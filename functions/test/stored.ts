import { tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { queryPages } from '../src/db/pages.ts';

/** Every item of a user's partition (profile, transcripts, chunks), to show that a refusal changed nothing. */
export async function storedItems(userId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId) },
    ConsistentRead: true,
  });
  for await (const out of pages) items.push(...(out.Items ?? []));
  return items;
}
