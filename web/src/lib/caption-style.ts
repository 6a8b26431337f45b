import { useQuery, useQueryClient } from './query';
import { useMutation } from './mutation';
import { useCallback, useSyncExternalStore } from 'react';
import { CAPTION_LIMITS, CAPTION_STORAGE_KEYS, COLOR_PRESETS, DEFAULT_CAPTION_STYLE, type CaptionStyle } from '@app/shared/caption-style';
import { captionStyle as captionStyleSchema } from '@app/shared/schemas/caption-style';
import { api } from './api';
import { useSession } from './auth';
import { readStorage, writeStorage } from './storage';

/**
 * The caption style in force: a signed-in user's from the account (GET /api/me/caption-style),
 * else the device's (localStorage). Until a signed-in user saves one, the device's applies, so
 * nothing chosen before signing in (or before the style existed) is lost. Only the lazily loaded
 * caption surfaces import this module (it carries the style's schema).
 */

export const captionStyleKeys = { of: (userId: string) => ['captionStyle', userId] as const };

/** Where caption mode kept its size (px) and colours before the caption style. */
export const LEGACY_CAPTION_KEYS = { size: 'transcribe.captionSize', theme: 'transcribe.captionTheme' } as const;
const LEGACY_THEMES = { dark: COLOR_PRESETS.whiteOnBlack, yellow: COLOR_PRESETS.yellowOnBlack, light: COLOR_PRESETS.blackOnWhite } as const;

/** Caption mode's old size and colours as a caption style (the default for whatever was not chosen). */
function legacyStyle(): CaptionStyle {
  const style = { ...DEFAULT_CAPTION_STYLE };
  const size = Number(readStorage(LEGACY_CAPTION_KEYS.size));
  if (Number.isInteger(size) && size >= CAPTION_LIMITS.size.min && size <= CAPTION_LIMITS.size.max) style.size = size;
  const theme = readStorage(LEGACY_CAPTION_KEYS.theme);
  if (theme && theme in LEGACY_THEMES) Object.assign(style, LEGACY_THEMES[theme as keyof typeof LEGACY_THEMES]);
  return style;
}

/** The device's style: the saved one, else caption mode's old choices, else the default. */
export function readDeviceCaptionStyle(): CaptionStyle {
  const raw = readStorage(CAPTION_STORAGE_KEYS.style);
  if (raw) {
    try {
      const parsed = captionStyleSchema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    } catch {
      // Unreadable: as if none was stored.
    }
  }
  return legacyStyle();
}

const listeners = new Set<() => void>();
let cache: { raw: string; style: CaptionStyle } | undefined;
function deviceSnapshot(): CaptionStyle {
  const raw = [CAPTION_STORAGE_KEYS.style, LEGACY_CAPTION_KEYS.size, LEGACY_CAPTION_KEYS.theme].map((key) => readStorage(key)).join('\n');
  if (!cache || cache.raw !== raw) cache = { raw, style: readDeviceCaptionStyle() };
  return cache.style;
}
function subscribeDevice(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function writeDeviceCaptionStyle(style: CaptionStyle): void {
  writeStorage(CAPTION_STORAGE_KEYS.style, JSON.stringify(style));
  for (const listener of listeners) listener();
}

/** The style in force, and whether a signed-in user's is still loading (the device's meanwhile). */
export function useCaptionStyle(): { style: CaptionStyle; isLoading: boolean } {
  const { user } = useSession();
  const device = useSyncExternalStore(subscribeDevice, deviceSnapshot);
  const account = useQuery({
    queryKey: captionStyleKeys.of(user?.id ?? ''),
    queryFn: async () => (await api('getCaptionStyle')).style ?? null,
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
  });
  if (!user) return { style: device, isLoading: user === undefined };
  return { style: account.data ?? device, isLoading: account.isPending };
}

/**
 * Saves the style whole: to the account (PUT; shown at once, put back if the server refuses it),
 * or for a visitor to the device.
 */
export function useSaveCaptionStyle() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const userId = user?.id ?? null;
  const mutation = useMutation({
    mutationFn: async (style: CaptionStyle) => {
      if (!userId) {
        writeDeviceCaptionStyle(style);
        return style;
      }
      return (await api('putCaptionStyle', { body: style })).style;
    },
    onMutate: async (style) => {
      if (!userId) return undefined;
      const key = captionStyleKeys.of(userId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<CaptionStyle | null>(key);
      queryClient.setQueryData(key, style);
      return { before };
    },
    onError: (_err, _style, context) => {
      if (userId && context) queryClient.setQueryData(captionStyleKeys.of(userId), context.before);
    },
    onSuccess: (saved) => {
      if (userId) queryClient.setQueryData(captionStyleKeys.of(userId), saved);
    },
  });
  const save = useCallback((style: CaptionStyle) => mutation.mutateAsync(style), [mutation]);
  return { save, isPending: mutation.isPending, error: mutation.error };
}
