import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseEmail } from '@app/shared/schemas/common';
import { batchWrite } from './chunk-store.ts';
import { db, isConditionFailure, nowSeconds, tableName } from './client.ts';
import { keys, SINGLE_USE_TOKEN_KINDS } from './keys.ts';
import { queryPages } from './pages.ts';
import { rateLimitKey } from './rate-limits.ts';

/**
 * Deleting an account: every item of the user leaves the table (docs/dynamodb.md, Deleting an
 * account). The user's partition holds almost all of them (profile, saved and automatic
 * transcriptions and their chunks, autosave keys, settings, caption style, passkeys, recovery
 * codes, live share pointers, pointers to single-use tokens: reset, verification, passkey
 * challenges); the pointers lead to the items kept elsewhere (live shares with their viewers, the
 * single-use tokens); the email claim and the rate-limit windows keyed by the user or their
 * email are found by their keys.
 */

type Key = { PK: string; SK: string };

/** The rate-limit windows keyed by a user: their id, their email, or their id and a UTC day. */
export function userRateLimitKeys(user: { id: string; email: string }, now = nowSeconds()): Key[] {
  const email = normaliseEmail(user.email);
  const day = (offsetDays: number) => new Date((Math.floor(now / 86_400) + offsetDays) * 86_400_000).toISOString().slice(0, 10);
  return [
    rateLimitKey('change-password', user.id),
    rateLimitKey('transcript-edit', user.id),
    rateLimitKey('verify-email', user.id),
    rateLimitKey('recovery-code', user.id),
    rateLimitKey('forgot-password', email),
    rateLimitKey('login-account', email),
    // The autosave meter of today and yesterday (an older one has expired).
    rateLimitKey('autosave', `${user.id}#${day(0)}`),
    rateLimitKey('autosave', `${user.id}#${day(-1)}`),
  ];
}

/**
 * Ends every session of the user at once (tokenVersion + 1), so no request of theirs writes
 * while the account is deleted; false when the user no longer exists.
 */
export async function endSessionsForDeletion(userId: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET tokenVersion = tokenVersion + :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Every key of the user's partition but the profile's, with what its pointers lead to. */
async function partitionKeys(userId: string): Promise<{ own: Key[]; elsewhere: Key[]; liveCodes: string[] }> {
  const own: Key[] = [];
  const elsewhere: Key[] = [];
  const liveCodes: string[] = [];
  const profile = keys.user(userId);
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId) },
    ProjectionExpression: 'PK, SK, code',
    ConsistentRead: true,
  });
  for await (const out of pages) {
    for (const item of out.Items ?? []) {
      const key = { PK: item.PK as string, SK: item.SK as string };
      if (key.SK === profile.SK) continue;
      own.push(key);
      if (key.SK.startsWith(keys.liveShareOfSessionPrefix()) && typeof item.code === 'string') liveCodes.push(item.code);
      const kind = SINGLE_USE_TOKEN_KINDS.find((k) => key.SK.startsWith(`${k}#`));
      if (kind) elsewhere.push(keys.singleUseToken(kind, key.SK.slice(kind.length + 1)));
    }
  }
  return { own, elsewhere, liveCodes };
}

/** A live share's items: the share and its viewers of the last minutes. */
async function liveShareKeys(code: string): Promise<Key[]> {
  const found: Key[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.liveShare(code).PK },
    ProjectionExpression: 'PK, SK',
  });
  for await (const out of pages) for (const item of out.Items ?? []) found.push({ PK: item.PK as string, SK: item.SK as string });
  return found;
}

const deleteAll = (list: Key[]) => batchWrite(list.map((Key) => ({ DeleteRequest: { Key } })));

/**
 * Removes every item of the user, the profile and the email claim last, together: a failure
 * before that leaves an account that can sign in and delete itself again. The partition is read
 * twice: what a request already under way wrote after the first read goes with the second.
 * Answers how many items it deleted.
 */
export async function deleteAccountItems(user: { id: string; email: string }, extraRateKeys: Key[] = []): Promise<number> {
  let deleted = 0;
  for (let pass = 0; pass < 2; pass++) {
    const { own, elsewhere, liveCodes } = await partitionKeys(user.id);
    const shares = (await Promise.all(liveCodes.map(liveShareKeys))).flat();
    await deleteAll([...shares, ...elsewhere]);
    await deleteAll(own);
    deleted += shares.length + elsewhere.length + own.length;
  }
  await deleteAll([...userRateLimitKeys(user), ...extraRateKeys]);
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: tableName(),
            Key: keys.emailClaim(normaliseEmail(user.email)),
            ConditionExpression: 'attribute_not_exists(PK) OR userId = :id',
            ExpressionAttributeValues: { ':id': user.id },
          },
        },
        { Delete: { TableName: tableName(), Key: keys.user(user.id) } },
      ],
    }),
  );
  return deleted + 2;
}
