import type { Passkey } from '@app/shared/schemas/passkeys';

/** What the owner sees of a stored passkey: never its key or credential id. */
export function toPublicPasskey(p: { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean }): Passkey {
  return { id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt, backedUp: p.backedUp };
}
