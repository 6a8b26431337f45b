import { STORAGE_KEYS } from '@app/shared/constants';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/render';
import { fetchMaintenanceMode } from './maintenance-check';

describe('the maintenance check', () => {
  it('asks the maintenanceMode route anonymously, and says on only for constructionMode true', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'session.jwt');
    window.localStorage.setItem(STORAGE_KEYS.devBypass, 'bypass.jwt');
    const calls = mockFetch(() => json(200, { constructionMode: true }));
    expect(await fetchMaintenanceMode()).toBe(true);
    expect(calls).toEqual([expect.objectContaining({ route: 'maintenanceMode', headers: { accept: 'application/json' } })]);
    mockFetch(() => json(200, { constructionMode: false }));
    expect(await fetchMaintenanceMode()).toBe(false);
  });

  it('treats any failure as open: an error status, a body without the flag, the network', async () => {
    mockFetch(() => json(500, { constructionMode: true }));
    expect(await fetchMaintenanceMode()).toBe(false);
    mockFetch(() => new Response('<html>', { status: 200 }));
    expect(await fetchMaintenanceMode()).toBe(false);
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(await fetchMaintenanceMode()).toBe(false);
  });
});
