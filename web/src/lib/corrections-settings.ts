import { useQuery } from './query';
import { useSyncExternalStore } from 'react';
import { DEFAULT_CORRECTIONS, STORAGE_KEYS } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { api } from './api';
import { useSession } from './auth';
import { readStorage, writeStorage } from './storage';

/**
 * The text corrections in force: a signed-in user's from the account (GET /api/me/corrections),
 * a visitor's from the device (localStorage, the same shape). Both read and written here only.
 */

export const correctionsKeys = {
  all: ['corrections'] as const,
  of: (userId: string) => ['corrections', userId] as const,
};

/**
 * The settings' schema, loaded when first needed: zod stays out of the first load. Until it has
 * loaded, a visitor's stored settings read as the defaults; its arrival re-reads them.
 */
type Schema = (typeof import('@app/shared/schemas/corrections'))['correctionSettings'];
let schema: Schema | undefined;
let schemaLoading: Promise<Schema> | undefined;
function loadSchema(): Promise<Schema> {
  schemaLoading ??= import('@app/shared/schemas/corrections').then((m) => {
    schema = m.correctionSettings;
    deviceCache = undefined;
    for (const listener of deviceListeners) listener();
    return schema;
  });
  return schemaLoading;
}

/** A visitor's settings on this device; the defaults when none (or unreadable ones) are stored. */
export function readDeviceCorrections(): CorrectionSettings {
  const raw = readStorage(STORAGE_KEYS.corrections);
  if (!raw) return DEFAULT_CORRECTIONS;
  if (!schema) {
    loadSchema().catch((err: unknown) => console.warn('[corrections] could not load', err));
    return DEFAULT_CORRECTIONS;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_CORRECTIONS;
  } catch {
    return DEFAULT_CORRECTIONS;
  }
}

const deviceListeners = new Set<() => void>();
let deviceCache: { raw: string | null; settings: CorrectionSettings } | undefined;
function deviceSnapshot(): CorrectionSettings {
  const raw = readStorage(STORAGE_KEYS.corrections);
  if (deviceCache?.raw !== raw) deviceCache = { raw, settings: readDeviceCorrections() };
  return deviceCache.settings;
}
const subscribeDevice = (listener: () => void) => {
  deviceListeners.add(listener);
  return () => deviceListeners.delete(listener);
};

export function writeDeviceCorrections(settings: CorrectionSettings): void {
  writeStorage(STORAGE_KEYS.corrections, JSON.stringify(settings));
  for (const listener of deviceListeners) listener();
}

/** The settings in force, and whether a signed-in user's are still loading (the defaults meanwhile). */
export function useCorrections(): { settings: CorrectionSettings; isLoading: boolean } {
  const { user } = useSession();
  const device = useSyncExternalStore(subscribeDevice, deviceSnapshot);
  const account = useQuery({
    queryKey: correctionsKeys.of(user?.id ?? ''),
    // An answer of another shape (an older server) counts as the defaults.
    queryFn: async () => {
      const [answer, correctionSettings] = await Promise.all([api('getCorrections'), loadSchema()]);
      const parsed = correctionSettings.safeParse(answer);
      return parsed.success ? parsed.data : DEFAULT_CORRECTIONS;
    },
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
  });
  if (!user) return { settings: device, isLoading: user === undefined };
  return { settings: account.data ?? DEFAULT_CORRECTIONS, isLoading: account.isPending };
}
