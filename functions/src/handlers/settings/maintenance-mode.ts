import { getSiteSettings } from '../../db/site-settings.ts';
import { route } from '../../lib/http.ts';

export const handler = route('maintenanceMode', async () => ({
  constructionMode: (await getSiteSettings()).maintenanceMode,
}));
