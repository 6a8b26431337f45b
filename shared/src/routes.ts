import type { z } from 'zod';
import { LIVE_CACHE_SECONDS, LIVE_HOLD_SECONDS } from './constants.ts';
import { fillPath, matchPath } from './route-paths.ts';
import { SECRET_NAMES, type SecretName } from './secrets.ts';
import * as account from './schemas/account.ts';
import * as auth from './schemas/auth.ts';
import { okResponse } from './schemas/common.ts';
import * as billing from './schemas/billing.ts';
import * as captionStyle from './schemas/caption-style.ts';
import * as corrections from './schemas/corrections.ts';
import * as live from './schemas/live.ts';
import * as passkeys from './schemas/passkeys.ts';
import * as settings from './schemas/settings.ts';
import * as site from './schemas/site.ts';
import * as tr from './schemas/transcriptions.ts';

/**
 * THE route table. The CDK stack creates an API route and a function per entry,
 * the local server mounts the same handler modules, and the web client is typed
 * from it. `handler` names `functions/src/handlers/<handler>.ts`.
 *
 * auth: 'none' (anyone), 'user' (a live session: its token in the session cookie, or a Bearer
 * header from scripts), 'pro' (the same and plan pro),
 * 'stripe' (no user; the handler verifies Stripe's signature on the raw body).
 */
export type AuthLevel = 'none' | 'user' | 'pro' | 'stripe';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: Method;
  path: string;
  handler: string;
  auth: AuthLevel;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
  /**
   * The caller presents a token of its own as a Bearer header, which the handler checks itself
   * (with auth 'none' the wrapper checks no session): without a valid one the answer is 401.
   */
  bearerToken?: true;
  /**
   * IAM actions the handler needs on the table; the CDK grants exactly these. A transaction needs
   * the action of each of its items (Put -> PutItem, Update -> UpdateItem, Delete -> DeleteItem,
   * ConditionCheck -> ConditionCheckItem). The functions tests record what each handler really
   * sends and fail when this list differs from it.
   */
  table: readonly TableAction[];
  /**
   * The global indexes its Queries read; only these index ARNs are granted, and only with Query.
   * The functions tests record the index of every Query a handler sends and fail when this differs.
   */
  indexes?: readonly TableIndex[];
  /**
   * The secrets the handler's own code reads (lib/auth.ts signing or checking a token, the bot
   * check, Stripe). What the wrapper reads for it comes on top (routeSecrets); the function may
   * read nothing else: the wrapper refuses any other read, and on AWS it has no access to any other.
   */
  secrets?: readonly SecretName[];
  /** Needs to send mail (SES). */
  mail?: boolean;
  /**
   * A GET whose answer is the same for everyone: CloudFront (and the local server) keep it
   * `seconds`, keyed by the path and only these query parameters (no cookies, no headers), and
   * collapse concurrent requests for one key into one handler call. `holdSeconds`: the handler
   * may hold a request that long waiting for a newer answer (a long poll); its function's timeout
   * is set above it. An answer with `Cache-Control: no-store` is given to the requests waiting
   * for it but not kept.
   */
  cache?: { seconds: number; query: readonly string[]; holdSeconds?: number };
}

export type TableAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'Query' | 'BatchWriteItem' | 'BatchGetItem';
/** The table's global secondary indexes (docs/dynamodb.md). */
export type TableIndex = 'GSI1';

export { fillPath, matchPath };

const define = <T extends Record<string, RouteDef>>(table: T) => table;

export const routes = define({
  register: {
    method: 'POST', path: '/api/auth/register', handler: 'auth/register', auth: 'none',
    body: auth.registerRequest, response: auth.authResponse,
    table: ['GetItem', 'PutItem'], secrets: ['tokenKey', 'botCheck'], mail: true,
  },
  /** Spends a verification link's token: the address it was mailed to is verified (while it is still the account's). */
  verifyEmail: {
    method: 'POST', path: '/api/auth/verify-email', handler: 'auth/verify-email', auth: 'none',
    body: auth.verifyEmailRequest, response: okResponse, table: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  /** Mails the caller a new verification link (VERIFY_RESEND_LIMIT an hour); 409 already_verified once verified. */
  resendVerification: {
    method: 'POST', path: '/api/auth/verify-email/resend', handler: 'auth/resend-verification', auth: 'user',
    response: okResponse, table: ['GetItem', 'PutItem', 'UpdateItem'], mail: true,
  },
  /**
   * A password sign-in: the session cookie and the user; for an account that requires a passkey,
   * no session but the second step's ceremony (passkeySignIn or recoveryCodeSignIn finishes it).
   */
  login: {
    method: 'POST', path: '/api/auth/login', handler: 'auth/login', auth: 'none',
    body: auth.loginRequest, response: passkeys.loginResponse,
    table: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'], secrets: ['tokenKey', 'botCheck'],
  },
  getMe: {
    method: 'GET', path: '/api/auth/me', handler: 'auth/get-me', auth: 'user',
    response: auth.user, table: ['GetItem'],
  },
  updateMe: {
    method: 'PATCH', path: '/api/auth/me', handler: 'auth/update-me', auth: 'user',
    body: auth.updateMeRequest, response: auth.user, table: ['GetItem', 'UpdateItem'],
  },
  forgotPassword: {
    method: 'POST', path: '/api/auth/forgot-password', handler: 'auth/forgot-password', auth: 'none',
    body: auth.forgotPasswordRequest, response: auth.forgotPasswordResponse,
    table: ['GetItem', 'PutItem', 'UpdateItem'], secrets: ['botCheck'], mail: true,
  },
  resetPassword: {
    method: 'POST', path: '/api/auth/reset-password', handler: 'auth/reset-password', auth: 'none',
    body: auth.resetPasswordRequest, response: okResponse,
    table: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  /**
   * Sets a new password given the current one (wrong ones counted and limited per account); ends
   * every other session (bumps tokenVersion) and answers this one's fresh token; mails a notice.
   */
  changePassword: {
    method: 'POST', path: '/api/auth/change-password', handler: 'auth/change-password', auth: 'user',
    body: auth.changePasswordRequest, response: auth.changePasswordResponse,
    table: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'], secrets: ['tokenKey'], mail: true,
  },
  /** Ends this session: its token is refused from now on, and the session cookie is cleared. */
  logout: {
    method: 'POST', path: '/api/auth/logout', handler: 'auth/logout', auth: 'user',
    response: okResponse, table: ['GetItem', 'PutItem'],
  },
  /** Ends every session of the caller, on every device (bumps tokenVersion: all of the user's tokens die). */
  logoutEverywhere: {
    method: 'POST', path: '/api/auth/logout-everywhere', handler: 'auth/logout-everywhere', auth: 'user',
    response: okResponse, table: ['GetItem', 'UpdateItem'],
  },
  /**
   * Moves a session of an earlier version (its token sent once as a Bearer header, from device
   * storage) into the session cookie, the same sign-in; the handler checks the token itself.
   */
  exchangeSession: {
    method: 'POST', path: '/api/auth/session', handler: 'auth/exchange-session', auth: 'none', bearerToken: true,
    response: auth.authResponse, table: ['GetItem'], secrets: ['tokenKey'],
  },
  // Passkeys (docs/passkeys.md): passwordless sign-in, the optional second factor, recovery codes
  /**
   * Starts a passwordless sign-in ceremony (discoverable credentials: no email asked); its
   * challenge is single-use for PASSKEY_CHALLENGE_TTL_SECONDS. Deleting the account with a passkey
   * answers one too.
   */
  startPasskeySignIn: {
    method: 'POST', path: '/api/auth/passkey/options', handler: 'auth/start-passkey-sign-in', auth: 'none',
    response: passkeys.passkeyCeremony, table: ['GetItem', 'PutItem'],
  },
  /**
   * Ends a sign-in ceremony (passwordless, or a password sign-in's second step) with the passkey's
   * signature: the same session cookie as a password. Every refusal is the same 401.
   */
  passkeySignIn: {
    method: 'POST', path: '/api/auth/passkey', handler: 'auth/passkey-sign-in', auth: 'none',
    body: passkeys.passkeySignInRequest, response: auth.authResponse,
    table: ['GetItem', 'DeleteItem', 'UpdateItem'], secrets: ['tokenKey'],
  },
  /** Ends a password sign-in's second step with a recovery code instead (each works once; wrong ones counted per account): the session cookie. */
  recoveryCodeSignIn: {
    method: 'POST', path: '/api/auth/recovery-code', handler: 'auth/recovery-code-sign-in', auth: 'none',
    body: passkeys.recoveryCodeSignInRequest, response: auth.authResponse,
    table: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'], secrets: ['tokenKey'],
  },
  /** The caller's passkeys, how many recovery codes are left, whether sign-in requires a passkey. */
  listPasskeys: {
    method: 'GET', path: '/api/me/passkeys', handler: 'passkeys/list-passkeys', auth: 'user',
    response: passkeys.passkeyList, table: ['GetItem', 'Query'],
  },
  /**
   * A new passkey's ceremony, bound to this session; after a recent sign-in or the current password
   * (as new recovery codes and the second factor's switch); none past PASSKEYS_MAX.
   */
  startPasskeyRegistration: {
    method: 'POST', path: '/api/me/passkeys/options', handler: 'passkeys/start-passkey-registration', auth: 'user',
    body: passkeys.reauthRequest, response: passkeys.passkeyCeremony, table: ['GetItem', 'UpdateItem', 'PutItem', 'Query'],
  },
  /** Adds the passkey this session's ceremony made; the account's first brings recovery codes, shown this once. Mails a notice. */
  addPasskey: {
    method: 'POST', path: '/api/me/passkeys', handler: 'passkeys/add-passkey', auth: 'user',
    body: passkeys.addPasskeyRequest, response: passkeys.addPasskeyResponse, table: ['GetItem', 'DeleteItem', 'Query', 'PutItem'], mail: true,
  },
  /** Removes one of the caller's passkeys (any other id: 404); the last takes the second factor and the codes with it. Mails a notice. */
  removePasskey: {
    method: 'DELETE', path: '/api/me/passkeys/{id}', handler: 'passkeys/remove-passkey', auth: 'user',
    params: passkeys.passkeyParams, response: okResponse, table: ['GetItem', 'DeleteItem', 'Query', 'UpdateItem'], mail: true,
  },
  /** New recovery codes, shown this once (the old ones end); only with a passkey. */
  createRecoveryCodes: {
    method: 'POST', path: '/api/me/recovery-codes', handler: 'passkeys/create-recovery-codes', auth: 'user',
    body: passkeys.reauthRequest, response: passkeys.recoveryCodesResponse, table: ['GetItem', 'UpdateItem', 'PutItem', 'Query'],
  },
  /** Whether a password sign-in also asks for a passkey (or a recovery code); turning it on needs a passkey. */
  setPasskeyRequirement: {
    method: 'PUT', path: '/api/me/passkey-requirement', handler: 'passkeys/set-passkey-requirement', auth: 'user',
    body: passkeys.passkeyRequirementRequest, response: passkeys.passkeyRequiredResponse, table: ['GetItem', 'UpdateItem', 'PutItem', 'Query'],
  },
  planStatus: {
    method: 'GET', path: '/api/auth/plan-status', handler: 'auth/plan-status', auth: 'user',
    response: auth.planStatusResponse, table: ['GetItem'],
  },
  // Your data: the export Download my data builds page by page, and the account's deletion
  /** The account's own part of the export: profile, billing status, live links, settings. */
  exportAccount: {
    method: 'GET', path: '/api/me/export', handler: 'account/export-account', auth: 'user',
    response: account.exportAccountResponse, table: ['GetItem', 'Query', 'BatchGetItem'],
  },
  /** The caller's saved or automatic transcriptions' metadata, oldest first, a page at a time (every plan: it is their data). */
  exportTranscriptions: {
    method: 'GET', path: '/api/me/export/transcriptions', handler: 'account/export-transcriptions', auth: 'user',
    query: account.exportListQuery, response: account.exportListResponse, table: ['GetItem', 'Query'],
  },
  /** One transcription's text and segments from an offset, a page at a time. */
  exportTranscriptionText: {
    method: 'GET', path: '/api/me/export/transcriptions/{kind}/{id}', handler: 'account/export-transcription-text', auth: 'user',
    params: account.exportTextParams, query: account.exportTextQuery, response: account.exportTextResponse, table: ['GetItem', 'Query'],
  },
  /**
   * Deletes the account after the password or a passkey of the account (attempts counted with the password change's): cancels
   * its Stripe subscriptions, removes every item of the user, mails a confirmation.
   */
  deleteAccount: {
    method: 'POST', path: '/api/me/delete', handler: 'account/delete-account', auth: 'user',
    body: account.deleteAccountBody, response: okResponse,
    table: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'Query', 'BatchWriteItem'], secrets: ['stripeApiKey'], mail: true,
  },
  /** The caller's text corrections (replacements, profanity modes, spoken commands, paragraphs); defaults until saved. */
  getCorrections: {
    method: 'GET', path: '/api/me/corrections', handler: 'corrections/get-corrections', auth: 'user',
    response: corrections.correctionSettings, table: ['GetItem'],
  },
  /** Replaces them whole. */
  putCorrections: {
    method: 'PUT', path: '/api/me/corrections', handler: 'corrections/put-corrections', auth: 'user',
    body: corrections.correctionSettings, response: corrections.correctionSettings, table: ['GetItem', 'PutItem'],
  },
  /** The caller's caption style (caption mode, the viewers of their live shares); null until saved. Every plan. */
  getCaptionStyle: {
    method: 'GET', path: '/api/me/caption-style', handler: 'caption-style/get-caption-style', auth: 'user',
    response: captionStyle.captionStyleResponse, table: ['GetItem'],
  },
  /** Replaces it whole. */
  putCaptionStyle: {
    method: 'PUT', path: '/api/me/caption-style', handler: 'caption-style/put-caption-style', auth: 'user',
    body: captionStyle.captionStyle, response: captionStyle.savedCaptionStyleResponse, table: ['GetItem', 'PutItem'],
  },
  maintenanceMode: {
    method: 'GET', path: '/api/settings/construction-mode', handler: 'settings/maintenance-mode', auth: 'none',
    response: settings.maintenanceModeResponse, table: ['GetItem'],
  },

  // Saved transcriptions (Pro)
  saveTranscription: {
    method: 'POST', path: '/api/transcriptions', handler: 'transcriptions/save-transcription', auth: 'pro',
    body: tr.saveTranscriptionRequest, response: tr.transcriptionSummary,
    table: ['GetItem', 'PutItem', 'BatchWriteItem'],
  },
  listTranscriptions: {
    method: 'GET', path: '/api/transcriptions', handler: 'transcriptions/list-transcriptions', auth: 'pro',
    query: tr.listQuery, response: tr.transcriptionList, table: ['GetItem', 'Query', 'BatchGetItem'],
  },
  getTranscription: {
    method: 'GET', path: '/api/transcriptions/{id}', handler: 'transcriptions/get-transcription', auth: 'pro',
    params: tr.idParams, response: tr.transcriptionDetail, table: ['GetItem', 'Query'],
  },
  /** Edits the text and/or title, on the version the client read (409 version_conflict otherwise). */
  updateTranscription: {
    method: 'PATCH', path: '/api/transcriptions/{id}', handler: 'transcriptions/update-transcription', auth: 'pro',
    params: tr.idParams, body: tr.updateTranscriptionRequest, response: tr.transcriptionSummary,
    table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'],
  },
  deleteTranscription: {
    method: 'DELETE', path: '/transcriptions/{id}', handler: 'transcriptions/delete-transcription', auth: 'pro',
    params: tr.idParams, response: okResponse, table: ['GetItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
  },

  // Autosave: the protocol that writes an automatic transcription while a logged-in user speaks
  autosaveSessionId: {
    method: 'GET', path: '/api/transcriptions-autosave/session-id', handler: 'autosave/new-session', auth: 'user',
    query: tr.sessionIdQuery, response: tr.sessionIdResponse, table: ['GetItem', 'PutItem', 'Query', 'DeleteItem'],
  },
  autosaveSave: {
    method: 'POST', path: '/api/transcriptions-autosave/save', handler: 'autosave/save', auth: 'user',
    body: tr.autosaveSaveRequest, response: tr.autosaveSaveResponse,
    table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'],
  },
  autosaveComplete: {
    method: 'POST', path: '/api/transcriptions-autosave/complete', handler: 'autosave/complete', auth: 'user',
    body: tr.autosaveCompleteRequest, response: okResponse, table: ['GetItem', 'UpdateItem'],
  },

  // Automatic transcriptions (what autosave wrote), for every logged-in user
  listAutomaticTranscriptions: {
    method: 'GET', path: '/api/transcriptions-autosave', handler: 'transcriptions/list-automatic-transcriptions', auth: 'user',
    query: tr.automaticListQuery, response: tr.automaticTranscriptionList, table: ['GetItem', 'Query', 'BatchGetItem'],
  },
  getAutomaticTranscription: {
    method: 'GET', path: '/api/transcriptions-autosave/{id}', handler: 'transcriptions/get-automatic-transcription', auth: 'user',
    params: tr.idParams, response: tr.automaticTranscriptionDetail, table: ['GetItem', 'Query'],
  },
  /** Edits a completed automatic transcription (409 in_progress while it is being written), like updateTranscription. */
  updateAutomaticTranscription: {
    method: 'PATCH', path: '/api/transcriptions-autosave/{id}', handler: 'transcriptions/update-automatic-transcription', auth: 'user',
    params: tr.idParams, body: tr.updateTranscriptionRequest, response: tr.automaticTranscriptionSummary,
    table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'],
  },
  deleteAutomaticTranscription: {
    method: 'DELETE', path: '/api/transcriptions-autosave/{id}', handler: 'transcriptions/delete-automatic-transcription', auth: 'user',
    params: tr.idParams, response: okResponse, table: ['GetItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
  },

  // Live caption sharing: a Pro user's running automatic transcription, followed by anyone with the link
  startLiveShare: {
    method: 'POST', path: '/api/live', handler: 'live/start-share', auth: 'pro',
    body: live.startLiveShareRequest, response: live.liveShareResponse, table: ['GetItem', 'PutItem', 'UpdateItem'],
  },
  stopLiveShare: {
    method: 'DELETE', path: '/api/live/{code}', handler: 'live/stop-share', auth: 'user',
    params: live.liveCodeParams, response: okResponse, table: ['GetItem', 'PutItem', 'UpdateItem'],
  },
  listLiveShares: {
    method: 'GET', path: '/api/live', handler: 'live/list-shares', auth: 'user',
    response: live.liveLinksResponse, table: ['GetItem', 'Query', 'BatchGetItem'],
  },
  stopAllLiveShares: {
    method: 'DELETE', path: '/api/live', handler: 'live/stop-all-shares', auth: 'user',
    response: live.stopAllLiveSharesResponse, table: ['GetItem', 'PutItem', 'UpdateItem', 'Query', 'BatchGetItem'],
  },
  viewLiveShare: {
    method: 'GET', path: '/api/live/{code}', handler: 'live/view-share', auth: 'none',
    params: live.liveCodeParams, query: live.liveViewQuery, response: live.liveViewResponse, table: ['GetItem', 'BatchGetItem', 'Query'],
    cache: { seconds: LIVE_CACHE_SECONDS, query: ['after'], holdSeconds: LIVE_HOLD_SECONDS },
  },
  recordLiveViewer: {
    method: 'POST', path: '/api/live/{code}/viewers', handler: 'live/record-viewer', auth: 'none',
    params: live.liveCodeParams, body: live.liveViewerRequest, response: okResponse, table: ['GetItem', 'PutItem'],
  },
  countLiveViewers: {
    method: 'GET', path: '/api/live/{code}/viewers', handler: 'live/count-viewers', auth: 'user',
    params: live.liveCodeParams, response: live.liveViewersResponse, table: ['GetItem', 'PutItem', 'UpdateItem', 'Query'],
  },

  /** The share's caption destinations (YouTube Live, Zoom) with their delivery state; owner only. Never their URLs. */
  listCaptionDestinations: {
    method: 'GET', path: '/api/live/{code}/destinations', handler: 'live/list-destinations', auth: 'pro',
    params: live.liveCodeParams, response: live.captionDestinationsResponse, table: ['GetItem', 'Query'],
  },
  /** Adds one: an https URL on the service's documented host (else 400, nothing stored or sent); captions from now on. */
  addCaptionDestination: {
    method: 'POST', path: '/api/live/{code}/destinations', handler: 'live/add-destination', auth: 'pro',
    params: live.liveCodeParams, body: live.captionDestinationRequest, response: live.captionDestination,
    table: ['GetItem', 'Query', 'PutItem'],
  },
  /** Pauses or resumes one (resumed, it goes on from the words said then). */
  updateCaptionDestination: {
    method: 'PATCH', path: '/api/live/{code}/destinations/{id}', handler: 'live/update-destination', auth: 'pro',
    params: live.captionDestinationParams, body: live.updateCaptionDestinationRequest, response: live.captionDestination,
    table: ['GetItem', 'Query', 'UpdateItem'],
  },
  /** Removes one, its URL with it; nothing more is sent to it. */
  removeCaptionDestination: {
    method: 'DELETE', path: '/api/live/{code}/destinations/{id}', handler: 'live/remove-destination', auth: 'user',
    params: live.captionDestinationParams, response: okResponse, table: ['GetItem', 'DeleteItem'],
  },

  // Billing (Stripe)
  checkout: {
    method: 'POST', path: '/stripe/checkout', handler: 'billing/create-checkout', auth: 'user',
    body: billing.checkoutRequest, response: billing.redirectResponse, table: ['GetItem', 'UpdateItem'], secrets: ['stripeApiKey'],
  },
  cancelCheckout: {
    method: 'POST', path: '/stripe/checkout/cancel', handler: 'billing/cancel-checkout', auth: 'user',
    response: okResponse, table: ['GetItem', 'UpdateItem'], secrets: ['stripeApiKey'],
  },
  portal: {
    method: 'POST', path: '/stripe/portal', handler: 'billing/create-portal', auth: 'user',
    response: billing.redirectResponse, table: ['GetItem'], secrets: ['stripeApiKey'],
  },
  /** A subscription set to cancel at its period end renews again; the answer is the plan as it now stands. */
  resumeSubscription: {
    method: 'POST', path: '/stripe/subscription/resume', handler: 'billing/resume-subscription', auth: 'user',
    response: auth.planStatusResponse, table: ['GetItem', 'UpdateItem'], secrets: ['stripeApiKey'],
  },
  stripeWebhook: {
    method: 'POST', path: '/stripe/webhook', handler: 'billing/stripe-webhook', auth: 'stripe',
    response: billing.webhookResponse, table: ['GetItem', 'Query', 'UpdateItem', 'PutItem'], indexes: ['GSI1'],
    secrets: ['stripeWebhookSigning'],
  },

  // Site: maintenance bypass, contact, analytics
  checkDevPassword: {
    method: 'POST', path: '/api/settings/check-dev-password', handler: 'settings/check-dev-password', auth: 'none',
    body: site.checkDevPasswordRequest, response: site.checkDevPasswordResponse, table: ['GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['tokenKey'],
  },
  contact: {
    method: 'POST', path: '/contact', handler: 'site/send-contact', auth: 'none',
    body: site.contactRequest, response: okResponse, table: ['GetItem', 'PutItem', 'UpdateItem'], mail: true,
  },
  analytics: {
    method: 'POST', path: '/api/auth/analytics', handler: 'site/record-analytics', auth: 'none',
    body: site.analyticsRequest, response: okResponse, table: ['GetItem', 'PutItem', 'UpdateItem'], secrets: ['tokenKey'],
  },
});

export type Routes = typeof routes;

/**
 * Routes that keep working while maintenance mode is on although they write: the way in (the dev
 * password check), payments (which must keep landing) and logging out, here or everywhere (which must always work).
 */
export const OPEN_DURING_MAINTENANCE: ReadonlySet<string> = new Set(['checkDevPassword', 'stripeWebhook', 'logout', 'logoutEverywhere']);
const WRITE_ACTIONS: ReadonlySet<TableAction> = new Set<TableAction>(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
/** Whether a route writes: a write action among its table grants, whatever its HTTP method. */
export const writesData = (def: RouteDef): boolean => def.table.some((action) => WRITE_ACTIONS.has(action));
/**
 * Whether maintenance mode closes a route (503): it writes and is not kept open. A caller with a
 * valid dev bypass token (signed with the token key) still gets through.
 */
export const closedDuringMaintenance = (name: string, def: RouteDef): boolean => writesData(def) && !OPEN_DURING_MAINTENANCE.has(name);

/**
 * Every secret a route's function reads, in SECRETS order: the origin secret (the wrapper checks it
 * on every request), the token key when the wrapper checks a session token (auth 'user' and 'pro')
 * or may check a maintenance bypass token (closedDuringMaintenance), and the handler's own
 * `secrets`. The stack grants exactly these, and the wrapper refuses a read of any other.
 */
export function routeSecrets(name: string, def: RouteDef): SecretName[] {
  const read = new Set<SecretName>(['origin', ...(def.secrets ?? [])]);
  if (def.auth === 'user' || def.auth === 'pro' || closedDuringMaintenance(name, def)) read.add('tokenKey');
  return SECRET_NAMES.filter((s) => read.has(s));
}
export type RouteName = keyof Routes;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
export type RouteBody<N extends RouteName> = Routes[N] extends { body: infer B } ? Infer<B> : undefined;
export type RouteResponse<N extends RouteName> = Infer<Routes[N]['response']>;

/**
 * The paths the API answers, as path patterns (CloudFront's syntax: `*` is any characters, `/`
 * included), derived from the route table: `/<segment>/*` for the routes below a first path
 * segment, `/<segment>` for a route that is that segment alone. CloudFront forwards them to the
 * REST API (infra/lib/web.ts), the local server answers them from the route table (an unknown
 * one is a JSON 404), the web app's dev server proxies them; every other path is the SPA.
 */
export function apiPathPatterns(table: Readonly<Record<string, RouteDef>> = routes): string[] {
  const patterns = new Set<string>();
  for (const { path } of Object.values(table)) {
    const [, first = '', ...rest] = path.split('/');
    if (!/^[\w.-]+$/.test(first)) throw new Error(`Route path ${path} must start with a fixed segment`);
    patterns.add(rest.length ? `/${first}/*` : `/${first}`);
  }
  return [...patterns];
}

/** A path pattern as a regular expression source, without anchors. */
export const pathPatternSource = (pattern: string) => pattern.split('*').map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&')).join('.*');

const patternRegExps = new Map<string, RegExp>();
/** Whether a path pattern matches a request path, as CloudFront matches them. */
export function pathPatternMatches(pattern: string, path: string): boolean {
  let re = patternRegExps.get(pattern);
  if (!re) patternRegExps.set(pattern, (re = new RegExp(`^${pathPatternSource(pattern)}$`)));
  return re.test(path);
}

const apiPatternsOf = new WeakMap<object, readonly string[]>();
/** Whether a request path is the API's (see apiPathPatterns). */
export function isApiPath(path: string, table: Readonly<Record<string, RouteDef>> = routes): boolean {
  let patterns = apiPatternsOf.get(table);
  if (!patterns) apiPatternsOf.set(table, (patterns = apiPathPatterns(table)));
  return patterns.some((pattern) => pathPatternMatches(pattern, path));
}

/** The URL path (and query) of a route by its name: `routeUrl('transcription', { id })`. */
export const routeUrl = (name: RouteName, params?: Record<string, unknown>, query?: Record<string, unknown>): string =>
  fillPath(routes[name].path, params, query);

/**
 * The name of the route a request is for, or undefined; as API Gateway matches, a fixed segment
 * wins over a `{parameter}`.
 */
export function routeNamed(method: string, path: string): RouteName | undefined {
  let best: { name: RouteName; params: number } | undefined;
  for (const [name, def] of Object.entries(routes) as [RouteName, RouteDef][]) {
    if (def.method !== method) continue;
    const params = matchPath(def.path, path);
    if (params && (!best || Object.keys(params).length < best.params)) best = { name, params: Object.keys(params).length };
  }
  return best?.name;
}
