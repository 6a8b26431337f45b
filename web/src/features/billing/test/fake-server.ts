import { RECOGNITION_LANGUAGE_COUNT } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { json, mockFetch, type MockCall } from '../../../test/render';

export const freeUser: User = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'pt-BR',
  plan: 'free', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z',
};
export const proUser: User = { ...freeUser, plan: 'pro', planExpiry: '2030-02-01T00:00:00.000Z' };

/**
 * A fake of the routes billing uses: /me (GET, PATCH), plan-status, checkout, portal, renewal.
 * `state.user` can be changed between calls (the webhook's part); `fail` makes a route answer 500
 * (`checkoutOpen`: checkout answers the server's 409 for a checkout already open in another currency;
 * `resume`: the renewal answers the server's 409 for a subscription that has ended; `patchCutOff`:
 * the PATCH fails on the network, as a call the browser cuts off when the page reloads).
 */
export function fakeBillingServer(initial: User, fail: Partial<Record<'checkout' | 'checkoutOpen' | 'portal' | 'patch' | 'patchCutOff' | 'resume', boolean>> = {}) {
  const state = { user: { ...initial } };
  const calls = mockFetch((call: MockCall) => {
    const err = () => json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' });
    if (call.route === 'getMe') return json(200, state.user);
    if (call.route === 'updateMe') {
      if (fail.patch) return err();
      if (fail.patchCutOff) throw new TypeError('Failed to fetch');
      state.user = { ...state.user, ...(call.body as Partial<User>) };
      return json(200, state.user);
    }
    if (call.route === 'planStatus') {
      return json(200, { plan: state.user.plan, isPro: state.user.plan === 'pro', planExpiry: state.user.planExpiry, planRenews: state.user.planRenews });
    }
    if (call.route === 'listAutomaticTranscriptions') return json(200, { transcriptions: [], nextCursor: null, keptThisMonth: 2 });
    if (call.route === 'cancelCheckout') return json(200, { ok: true });
    if (call.route === 'checkout' && fail.checkoutOpen) {
      return json(409, { error: 'A checkout is already open. Finish it, or cancel it to choose again.', code: 'checkout_open', secondsLeft: 1700 });
    }
    if (call.route === 'checkout') return fail.checkout ? err() : json(200, { url: 'https://checkout.example/c/cs_test_123' });
    if (call.route === 'portal') return fail.portal ? err() : json(200, { url: 'https://billing.example/p/cus_1' });
    if (call.route === 'resumeSubscription') {
      if (fail.resume) return json(409, { error: 'This subscription can no longer be renewed', code: 'not_resumable' });
      state.user = { ...state.user, planRenews: true };
      return json(200, { plan: state.user.plan, isPro: state.user.plan === 'pro', planExpiry: state.user.planExpiry, planRenews: true });
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  return { state, calls };
}

/** Pro's benefits as every place that lists them says them in English, word for word. */
export const PRO_BENEFITS_EN = [
  `All ${RECOGNITION_LANGUAGE_COUNT} recognition languages`,
  'No monthly limit on recordings',
  'Saved transcriptions with history',
  'Export as TXT, SRT or VTT',
  'Dark theme',
  'Pro badge',
];
