import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Plan, UiLanguage } from '@app/shared/constants';
import { normaliseEmail } from '@app/shared/schemas/common';
import type { User } from '../domain/users.ts';
import { db, isConditionFailure, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  language: UiLanguage;
}

export class EmailTakenError extends Error {
  constructor() {
    super('email taken');
    this.name = 'EmailTakenError';
  }
}

/**
 * Creates the user and claims its email in one transaction: of concurrent claims one wins. No
 * recognition language is stored until the user chooses one (domain/users.ts recognitionLanguageOf).
 */
export async function createUser(input: NewUser): Promise<User> {
  const now = nowIso();
  const user: User = {
    id: ulid(),
    name: input.name,
    email: input.email.trim(),
    createdWithEmail: input.email.trim(),
    passwordHash: input.passwordHash,
    language: input.language,
    theme: 'light',
    plan: 'free',
    planExpiry: null,
    tokenVersion: 0,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.emailClaim(normaliseEmail(user.email)), type: 'emailClaim', userId: user.id, createdAt: now, updatedAt: now },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.user(user.id), type: 'user', ...user },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new EmailTakenError();
    throw err;
  }
  return user;
}

export async function getUser(id: string): Promise<User | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }));
  return out.Item ? toUser(out.Item) : undefined;
}

export async function getUserByEmail(email: string): Promise<User | undefined> {
  const claim = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.emailClaim(normaliseEmail(email)), ConsistentRead: true }),
  );
  const userId = claim.Item?.userId as string | undefined;
  return userId ? getUser(userId) : undefined;
}

export type ProfilePatch = Partial<Pick<User, 'name' | 'language' | 'theme' | 'transcriptionLang' | 'surveyShown'>>;

/** Sets the given fields; a recognition language set here is the user's choice, and is marked so. */
export async function updateProfile(id: string, patch: ProfilePatch): Promise<User> {
  const marked = patch.transcriptionLang === undefined ? patch : { ...patch, transcriptionLangChosen: true };
  const entries = Object.entries(marked).filter(([, v]) => v !== undefined);
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': nowIso() };
  const sets = ['#updatedAt = :updatedAt'];
  for (const [k, v] of entries) {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toUser(out.Attributes!);
}

/**
 * The password-change write, for use inside a transaction: sets the hash and bumps
 * tokenVersion, on condition that tokenVersion is still `expectedVersion`.
 */
export function passwordChange(id: string, passwordHash: string, expectedVersion: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.user(id),
      UpdateExpression: 'SET passwordHash = :hash, tokenVersion = :next, updatedAt = :now',
      ConditionExpression: 'tokenVersion = :expected',
      ExpressionAttributeValues: { ':hash': passwordHash, ':next': expectedVersion + 1, ':expected': expectedVersion, ':now': nowIso() },
    },
  };
}

/**
 * Sets a new password hash and bumps tokenVersion (ending every session signed before), on
 * condition that tokenVersion is still `expectedVersion`: false when another change, reset or
 * logout came first.
 */
export async function changePassword(id: string, passwordHash: string, expectedVersion: number): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(passwordChange(id, passwordHash, expectedVersion).Update));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Ends every session of the user: tokens carry tokenVersion, so bumping it refuses them all. */
export async function bumpTokenVersion(id: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(id),
      UpdateExpression: 'SET tokenVersion = tokenVersion + :one, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':one': 1, ':now': nowIso() },
    }),
  );
}

function toUser(item: Record<string, unknown>): User {
  const { PK: _pk, SK: _sk, type: _type, GSI1PK: _g1, GSI1SK: _g2, ...rest } = item;
  return rest as unknown as User;
}

/** Sets the plan (billing decides it; tests and operators use it directly too). */
export async function setPlan(id: string, plan: Plan, planExpiry: string | null): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(id),
      UpdateExpression: 'SET #plan = :plan, planExpiry = :expiry, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan, ':expiry': planExpiry, ':now': nowIso() },
    }),
  );
}
