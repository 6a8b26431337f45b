import { PASSKEYS_MAX } from '@app/shared/constants';
import type { ManagePasskeysRequest } from '@app/shared/schemas/passkeys';
import { deletePasskey, getPasskey, listPasskeys, putPasskey, setPasskeyRequired } from '../../db/passkeys.ts';
import { countRecoveryCodesLeft, deleteRecoveryCodes } from '../../db/recovery-codes.ts';
import { passkeyChangedMail } from '../../domain/mail-copy.ts';
import { toPublicPasskey } from '../../domain/passkeys.ts';
import type { User } from '../../domain/users.ts';
import type { Session } from '../../lib/auth.ts';
import { env } from '../../lib/env.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { log, securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';
import { assertRecentSignIn, finishRegistration, newRecoveryCodes, startRegistration } from '../../lib/passkeys.ts';

type Action<A extends ManagePasskeysRequest['action']> = Extract<ManagePasskeysRequest, { action: A }>;
interface Caller {
  user: User;
  session: Session;
  sourceIp: string;
}

const full = () => conflict(`You already have ${PASSKEYS_MAX} passkeys. Remove one to add another.`, 'passkeys_full');

/** A notice of an added or removed passkey to the user's address, in their language; a lost one is logged, never fatal. */
async function notify(user: User, passkeyName: string, change: 'added' | 'removed'): Promise<void> {
  try {
    await sendMail({ to: user.email, ...passkeyChangedMail(user.language, user.name, passkeyName, change, `${env().APP_URL}/profile`) });
  } catch (err) {
    log.error(`passkey-${change} notice not sent`, { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
}

/** `list`: the caller's passkeys (oldest first), unused recovery codes, and the second factor's switch. */
async function list({ user }: Caller) {
  const [passkeys, recoveryCodesLeft] = await Promise.all([listPasskeys(user.id), countRecoveryCodesLeft(user.id)]);
  return { passkeys: passkeys.map(toPublicPasskey), recoveryCodesLeft, required: user.passkeyRequired === true };
}

/** `options`: a new passkey's ceremony, after a recent sign-in or the password; none past PASSKEYS_MAX (409). */
async function options(body: Action<'options'>, { user, session, sourceIp }: Caller) {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  const existing = await listPasskeys(user.id);
  if (existing.length >= PASSKEYS_MAX) throw full();
  return startRegistration(user, session, existing);
}

/**
 * `add`: stores the passkey this session's ceremony made (its challenge spent, whatever the
 * outcome). The account's first passkey brings new recovery codes, answered this once.
 */
async function add(body: Action<'add'>, { user, session, sourceIp }: Caller) {
  const verified = await finishRegistration(body.flow, user, session, body.credential);
  const existing = await listPasskeys(user.id);
  if (existing.length >= PASSKEYS_MAX) throw full();
  const stored = await putPasskey({ ...verified, userId: user.id, name: body.name });
  if (!stored) throw conflict('This passkey is already on your account.', 'passkey_exists');
  const recoveryCodes = existing.length === 0 ? await newRecoveryCodes(user.id) : null;
  securityEvent('passkey_added', { user_id: user.id, source_ip: sourceIp });
  await notify(user, stored.name, 'added');
  return { passkey: toPublicPasskey(stored), recoveryCodes };
}

/** `remove`: one of the caller's passkeys (any other id: 404). Without passkeys left, sign-in no longer requires one and the recovery codes go too. */
async function remove(body: Action<'remove'>, { user, sourceIp }: Caller) {
  const passkey = await getPasskey(user.id, body.id);
  if (!passkey || !(await deletePasskey(user.id, body.id))) throw notFound('No such passkey.', 'passkey_not_found');
  if ((await listPasskeys(user.id)).length === 0) {
    if (user.passkeyRequired) await setPasskeyRequired(user.id, false);
    await deleteRecoveryCodes(user.id);
  }
  securityEvent('passkey_removed', { user_id: user.id, source_ip: sourceIp });
  await notify(user, passkey.name, 'removed');
  return { ok: true as const };
}

/** `recovery-codes`: new codes (the old ones stop working), answered this once; only with a passkey (409). */
async function recoveryCodes(body: Action<'recovery-codes'>, { user, session, sourceIp }: Caller) {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  if ((await listPasskeys(user.id)).length === 0) throw conflict('Add a passkey first: recovery codes stand in for a lost passkey.', 'no_passkeys');
  return { recoveryCodes: await newRecoveryCodes(user.id) };
}

/** `require`: whether a password sign-in also needs a passkey (or a recovery code); turning it on needs a passkey (409). */
async function require(body: Action<'require'>, { user, session, sourceIp }: Caller) {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  if (body.required && (await listPasskeys(user.id)).length === 0) throw conflict('Add a passkey first.', 'no_passkeys');
  await setPasskeyRequired(user.id, body.required);
  return { required: body.required };
}

/** POST /api/me/passkeys: the caller's passkeys, listed or changed (the route table says how). */
export const handler = route('managePasskeys', async ({ body, user, session, sourceIp }) => {
  const caller = { user, session, sourceIp };
  switch (body.action) {
    case 'list':
      return list(caller);
    case 'options':
      return options(body, caller);
    case 'add':
      return add(body, caller);
    case 'remove':
      return remove(body, caller);
    case 'recovery-codes':
      return recoveryCodes(body, caller);
    case 'require':
      return require(body, caller);
  }
});
