import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/** Site-wide settings (PK SETTINGS, SK SITE): maintenance mode and the dev password hash. */
export interface SiteSettings {
  constructionMode: boolean;
  devPasswordHash?: string;
}

export async function getSiteSettings(): Promise<SiteSettings> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSettings() }));
  return {
    constructionMode: out.Item?.constructionMode === true,
    devPasswordHash: out.Item?.devPasswordHash as string | undefined,
  };
}

export async function setSiteSettings(patch: Partial<SiteSettings>): Promise<void> {
  const names: Record<string, string> = { '#u': 'updatedAt', '#c': 'createdAt', '#t': 'type' };
  const values: Record<string, unknown> = { ':now': nowIso(), ':type': 'siteSettings' };
  const sets = ['#u = :now', '#c = if_not_exists(#c, :now)', '#t = :type'];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.siteSettings(),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
