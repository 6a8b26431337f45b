import { getSiteSettings } from '../../db/site-settings.ts';
import { route } from '../../lib/http.ts';

export const handler = route('constructionMode', async () => ({
  constructionMode: (await getSiteSettings()).constructionMode,
}));
