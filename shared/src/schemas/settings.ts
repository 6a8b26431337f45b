import * as z from 'zod';

export const constructionModeResponse = z.object({ constructionMode: z.boolean() });
export type ConstructionModeResponse = z.infer<typeof constructionModeResponse>;
