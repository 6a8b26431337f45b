import * as z from 'zod';
import { NAME_MAX } from '../constants.ts';
import { email } from './common.ts';

export const checkDevPasswordRequest = z.object({
  password: z.string().min(1, 'Por favor, digite uma senha').max(256),
});
/** On success, `bypassToken` lets this browser write while maintenance mode is on (header x-dev-bypass). */
export const checkDevPasswordResponse = z.object({ success: z.boolean(), bypassToken: z.string().optional() });

export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MAX = 5000;
export const contactRequest = z.object({
  name: z.string().trim().min(1, 'Name is required').max(NAME_MAX),
  email,
  subject: z.string().trim().min(1, 'Subject is required').max(CONTACT_SUBJECT_MAX),
  message: z.string().trim().min(1, 'Message is required').max(CONTACT_MESSAGE_MAX),
});
export type ContactRequest = z.infer<typeof contactRequest>;

/** The analytics payload: what the browser reports of a visit. */
export const analyticsRequest = z.object({
  cookies: z.boolean(),
  userAgent: z.string().max(512),
  language: z.string().max(35),
  screen: z.string().regex(/^\d{1,5}x\d{1,5}$/, 'screen must be WxH'),
  timezone: z.string().max(64),
  platform: z.string().max(64),
  deviceType: z.enum(['mobile', 'tablet', 'desktop']),
});
export type AnalyticsRequest = z.infer<typeof analyticsRequest>;
