import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteName } from '@app/shared/routes';
import { setSiteSettings } from '../src/db/site-settings.ts';
import { call, registerUser } from './call.ts';

/**
 * Every route that writes (a write action among its table grants, whatever its method) reads the
 * site settings first (so its IAM grant needs GetItem even when its own work does not) and refuses
 * with 503 while maintenance mode is on, before reading its input or its caller. The dev password
 * check (the way in), the Stripe webhook and logging out (here or everywhere) stay open.
 */
const OPEN = new Set<RouteName>(['checkDevPassword', 'stripeWebhook', 'logout', 'logoutEverywhere']);
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
const writes = (Object.keys(routes) as RouteName[]).filter((name) => routes[name].table.some((a) => WRITES.includes(a)) && !OPEN.has(name));

describe('maintenance mode on every write route', () => {
  let registerUserBeforeMaintenance: ReturnType<typeof registerUser>;
  let secondUser: ReturnType<typeof registerUser>;
  beforeAll(async () => {
    registerUserBeforeMaintenance = registerUser();
    secondUser = registerUser();
    await Promise.all([registerUserBeforeMaintenance, secondUser]);
    await setSiteSettings({ maintenanceMode: true });
  });
  afterAll(() => setSiteSettings({ maintenanceMode: false }));

  it('covers the write routes of the route table', () => {
    expect(writes).toEqual(expect.arrayContaining(['register', 'login', 'contact', 'autosaveSave', 'deleteTranscription', 'autosaveSessionId']));
    expect(writes).not.toContain('logout');
    expect(writes).not.toContain('logoutEverywhere');
  });

  it('lets a signed-in user log out', async () => {
    const u = await registerUserBeforeMaintenance;
    const res = await call('logout', { token: u.token });
    expect(res.status).toBe(200);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
  });

  it('lets a signed-in user sign out everywhere', async () => {
    const u = await secondUser;
    expect((await call('logoutEverywhere', { token: u.token })).status).toBe(200);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
  });

  it.each(writes)('%s answers 503 maintenance, without a body or a token', async (name) => {
    const res = await call(name, { params: { id: 'any' } });
    expect(res).toMatchObject({ status: 503, body: { code: 'maintenance' } });
    expect(res.headers['retry-after']).toBe('60');
  });
});
