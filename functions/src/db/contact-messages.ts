import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/** A contact-form message (PK CONTACT#yyyy-mm, SK ulid), kept so nothing is lost if mail fails. */
export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
}

export type NewContactMessage = Omit<ContactMessage, 'id' | 'createdAt'>;

/** `yyyy-mm` (UTC) of an ISO timestamp: the partition a message lands in. */
export const contactMonth = (iso: string) => iso.slice(0, 7);

export async function putContactMessage(input: NewContactMessage): Promise<ContactMessage> {
  const now = nowIso();
  const message: ContactMessage = { id: ulid(), ...input, createdAt: now };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.contactMessage(contactMonth(now), message.id), type: 'contactMessage', ...message, updatedAt: now },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return message;
}

/** The messages of one month (`yyyy-mm`), newest first (support tooling and tests). */
export async function listContactMessages(month: string, limit = 100): Promise<ContactMessage[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.contactPk(month) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(({ id, name, email, subject, message, createdAt }) => ({ id, name, email, subject, message, createdAt }) as ContactMessage);
}
