import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteName } from '@app/shared/routes';
import { setSiteSettings } from '../src/db/site-settings.ts';
import { call } from './call.ts';

/**
 * Every write route reads the site settings first (so its IAM grant needs GetItem even when its
 * own work does not) and refuses with 503 while maintenance mode is on, before reading its input
 * or its caller. The dev password check (the way in) and the Stripe webhook stay open.
 */
const OPEN = new Set<RouteName>(['checkDevPassword', 'stripeWebhook']);
const writes = (Object.keys(routes) as RouteName[]).filter((name) => routes[name].method !== 'GET' && !OPEN.has(name));

describe('maintenance mode on every write route', () => {
  beforeAll(() => setSiteSettings({ maintenanceMode: true }));
  afterAll(() => setSiteSettings({ maintenanceMode: false }));

  it('covers the write routes of the route table', () => {
    expect(writes).toEqual(expect.arrayContaining(['register', 'login', 'contact', 'autosaveSave', 'deleteTranscription']));
  });

  it.each(writes)('%s answers 503 maintenance, without a body or a token', async (name) => {
    const res = await call(name, { params: { id: 'any' } });
    expect(res).toMatchObject({ status: 503, body: { code: 'maintenance' } });
    expect(res.headers['retry-after']).toBe('60');
  });
});
