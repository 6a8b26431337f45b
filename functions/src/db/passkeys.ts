import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { db, isConditionFailure, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';
import { queryPages } from './pages.ts';

/**
 * A passkey (a WebAuthn credential) of a user: PK USER#<userId>, SK PASSKEY#<id>, where `id` is the
 * SHA-256 of the credential id (base64url, 43 characters): the name the API uses for it, and a key
 * of bounded length (a credential id may be up to 1023 bytes).
 */
export interface StoredPasskey {
  id: string;
  userId: string;
  name: string;
  /** The credential id, base64url. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter the authenticator last reported (0: it keeps none). */
  counter: number;
  transports: string[];
  /** 'multiDevice' (synced by its provider) or 'singleDevice'. */
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The name a credential id has in the API and the table. */
export const passkeyIdOf = (credentialId: string) => createHash('sha256').update(credentialId).digest('base64url');

const toPasskey = (item: Record<string, unknown>): StoredPasskey => {
  const { PK: _pk, SK: _sk, type: _type, updatedAt: _u, ...rest } = item;
  return { lastUsedAt: null, ...rest } as StoredPasskey;
};

/** Stores a new passkey; undefined when this credential is already stored for the user. */
export async function putPasskey(passkey: Omit<StoredPasskey, 'id' | 'createdAt' | 'lastUsedAt'>): Promise<StoredPasskey | undefined> {
  const now = nowIso();
  const stored: StoredPasskey = { ...passkey, id: passkeyIdOf(passkey.credentialId), createdAt: now, lastUsedAt: null };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...stored, ...keys.passkey(passkey.userId, stored.id), type: 'passkey', updatedAt: now },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
  return stored;
}

export async function getPasskey(userId: string, id: string): Promise<StoredPasskey | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(userId, id), ConsistentRead: true }));
  return out.Item ? toPasskey(out.Item) : undefined;
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(userId: string): Promise<StoredPasskey[]> {
  const found: StoredPasskey[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.passkeyPrefix() },
    ConsistentRead: true,
  });
  for await (const out of pages) for (const item of out.Items ?? []) found.push(toPasskey(item));
  return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Records a use: the counter and backup state the authenticator reported, and when. */
export async function recordPasskeyUse(userId: string, id: string, use: { counter: number; backedUp: boolean; deviceType: string }): Promise<void> {
  const now = nowIso();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.passkey(userId, id),
      UpdateExpression: 'SET #counter = :counter, backedUp = :backedUp, deviceType = :deviceType, lastUsedAt = :now, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#counter': 'counter' },
      ExpressionAttributeValues: { ':counter': use.counter, ':backedUp': use.backedUp, ':deviceType': use.deviceType, ':now': now },
    }),
  );
}

/** Deletes one of the user's passkeys; false when the user has none of that id. */
export async function deletePasskey(userId: string, id: string): Promise<boolean> {
  try {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.passkey(userId, id), ConditionExpression: 'attribute_exists(PK)' }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Turns "require a passkey at sign-in" on or off on the user's item. */
export async function setPasskeyRequired(userId: string, required: boolean): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'SET passkeyRequired = :required, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':required': required, ':now': nowIso() },
    }),
  );
}
