import { describe, expect, it } from 'vitest';
import { routes } from '@app/shared/routes';
import { ANALYTICS_PATH, MAINTENANCE_MODE_PATH } from './site-endpoints';

describe('site endpoints', () => {
  it('use the paths of the shared route table', () => {
    expect({ method: routes.maintenanceMode.method, path: MAINTENANCE_MODE_PATH }).toEqual({
      method: 'GET',
      path: routes.maintenanceMode.path,
    });
    expect({ method: routes.analytics.method, path: ANALYTICS_PATH }).toEqual({ method: 'POST', path: routes.analytics.path });
  });
});
