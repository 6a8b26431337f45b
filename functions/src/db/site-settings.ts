import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/** Site-wide settings (PK SETTINGS, SK SITE): maintenance mode and the dev password hash. */
export interface SiteSettings {
  maintenanceMode: boolean;
  devPasswordHash?: string;
}

/** Stored attribute names that differ from the field names: existing items keep `constructionMode`. */
const ATTRIBUTE: Record<keyof SiteSettings, string> = { maintenanceMode: 'constructionMode', devPasswordHash: 'devPasswordHash' };

export async function getSiteSettings(): Promise<SiteSettings> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSettings() }));
  return {
    maintenanceMode: out.Item?.[ATTRIBUTE.maintenanceMode] === true,
    devPasswordHash: out.Item?.[ATTRIBUTE.devPasswordHash] as string | undefined,
  };
}

/** How long a container trusts its copy of the settings (the wrapper reads them on every write). */
export const SITE_SETTINGS_CACHE_MS = 10_000;
let cache: { at: number; settings: SiteSettings } | undefined;

/**
 * The settings for the wrapper's maintenance check. While maintenance mode is off, the copy
 * read at most SITE_SETTINGS_CACHE_MS ago serves (so turning it on reaches every container
 * within that time); while it is on, every call reads again, so turning it off applies at once.
 */
export async function cachedSiteSettings(now = Date.now()): Promise<SiteSettings> {
  if (cache && now - cache.at < SITE_SETTINGS_CACHE_MS) return cache.settings;
  const settings = await getSiteSettings();
  cache = settings.maintenanceMode ? undefined : { at: now, settings };
  return settings;
}

/** Forgets this container's copy (tests; a write through setSiteSettings does it too). */
export function resetSiteSettingsCache(): void {
  cache = undefined;
}

export async function setSiteSettings(patch: Partial<SiteSettings>): Promise<void> {
  const names: Record<string, string> = { '#u': 'updatedAt', '#c': 'createdAt', '#t': 'type' };
  const values: Record<string, unknown> = { ':now': nowIso(), ':type': 'siteSettings' };
  const sets = ['#u = :now', '#c = if_not_exists(#c, :now)', '#t = :type'];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    names[`#${k}`] = ATTRIBUTE[k as keyof SiteSettings];
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
  resetSiteSettingsCache();
}
