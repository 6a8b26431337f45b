import * as z from 'zod';

/** Whether maintenance mode is on; the API's field keeps its original name, `constructionMode`. */
export const maintenanceModeResponse = z.object({ constructionMode: z.boolean() });
export type MaintenanceModeResponse = z.infer<typeof maintenanceModeResponse>;
