import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Sessions ended by a logout, by session id (the token's `sid`), until their token would have
 * expired anyway (`expiresAt`, TTL). The item names no user.
 */
export async function revokeSession(sid: string, tokenExpiresAt: number): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.revokedSession(sid), type: 'revokedSession', expiresAt: Math.max(tokenExpiresAt, nowSeconds() + 60) },
    }),
  );
}

/** Whether a logout ended the session (TTL deletion is lazy, but an expired token is refused before this is asked). */
export async function isSessionRevoked(sid: string): Promise<boolean> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.revokedSession(sid), ConsistentRead: true, ProjectionExpression: 'PK' }));
  return out.Item !== undefined;
}
