import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CAPTION_FONTS, type CaptionStyle } from '@app/shared/caption-style';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A user's caption style (`USER#<userId>` / `CAPTIONSTYLE`): how their captions look in caption
 * mode and to the viewers of their live shares. An item of its own, read only by the routes that
 * need it, never with the user item every authenticated request reads.
 */

const FIELDS = [
  'font', 'size', 'lineHeight', 'letterSpacing', 'weight', 'uppercase', 'color', 'background',
  'backgroundOpacity', 'edge', 'align', 'position', 'lines', 'interim',
] as const satisfies readonly (keyof CaptionStyle)[];

/** The user's saved style; undefined until they save one. */
export async function getCaptionStyle(userId: string): Promise<CaptionStyle | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.captionStyle(userId), ConsistentRead: true }));
  const item = out.Item;
  if (!item || !CAPTION_FONTS.includes(item.font as CaptionStyle['font'])) return undefined;
  return Object.fromEntries(FIELDS.map((field) => [field, item[field]])) as unknown as CaptionStyle;
}

/** Replaces the user's style whole (createdAt kept from the first write). */
export async function putCaptionStyle(userId: string, style: CaptionStyle): Promise<CaptionStyle> {
  const existing = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.captionStyle(userId), ProjectionExpression: 'createdAt', ConsistentRead: true }),
  );
  const now = nowIso();
  const stored = Object.fromEntries(FIELDS.map((field) => [field, style[field]])) as unknown as CaptionStyle;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.captionStyle(userId), type: 'captionStyle', ...stored, createdAt: (existing.Item?.createdAt as string | undefined) ?? now, updatedAt: now },
    }),
  );
  return stored;
}
