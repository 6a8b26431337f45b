import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A user's text corrections (`USER#<userId>` / `CORRECTIONS`): the replacement list, the
 * profanity modes, spoken commands and the paragraph silence. An item of its own, read only by
 * the routes that need it, never with the user item every authenticated request reads.
 */

const FIELDS = ['replacements', 'profanity', 'shareProfanity', 'voiceCommands', 'paragraphSilence'] as const;

/** The user's settings; the defaults for whatever was never saved. */
export async function getCorrections(userId: string): Promise<CorrectionSettings> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.corrections(userId), ConsistentRead: true }));
  const item = out.Item ?? {};
  const settings = { ...DEFAULT_CORRECTIONS };
  for (const field of FIELDS) if (item[field] !== undefined) Object.assign(settings, { [field]: item[field] });
  return settings;
}

/** Replaces the user's settings whole (createdAt kept from the first write). */
export async function putCorrections(userId: string, settings: CorrectionSettings): Promise<CorrectionSettings> {
  const existing = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.corrections(userId), ProjectionExpression: 'createdAt', ConsistentRead: true }),
  );
  const now = nowIso();
  const stored: CorrectionSettings = {
    replacements: settings.replacements.map(({ phrase, replacement }) => ({ phrase, replacement })),
    profanity: settings.profanity,
    shareProfanity: settings.shareProfanity,
    voiceCommands: settings.voiceCommands,
    paragraphSilence: settings.paragraphSilence,
  };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.corrections(userId), type: 'corrections', ...stored, createdAt: (existing.Item?.createdAt as string | undefined) ?? now, updatedAt: now },
    }),
  );
  return stored;
}
