import { normaliseEmail } from '@app/shared/schemas/common';
import { putContactMessage } from '../../db/contact-messages.ts';
import { hitRateLimit, type RateRule } from '../../db/rate-limits.ts';
import { env } from '../../lib/env.ts';
import { tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { headerSafe, sendMail } from '../../lib/mail.ts';

export const CONTACT_RATE_PER_IP: RateRule = { limit: 5, windowSeconds: 60 * 60 };
export const CONTACT_RATE_PER_EMAIL: RateRule = { limit: 5, windowSeconds: 60 * 60 };

const tooManyMessages = (secondsLeft: number) =>
  tooMany('Too many messages. Please try again later.', secondsLeft, 'contact_rate_limited');

/**
 * The help page's contact form: stored, then mailed to SUPPORT_EMAIL with the sender as
 * reply-to. Single-line fields are flattened, so no value can add a mail header.
 */
export const handler = route('contact', async ({ body, sourceIp }) => {
  for (const [scope, key, rule] of [
    ['contact-ip', sourceIp, CONTACT_RATE_PER_IP],
    ['contact-email', normaliseEmail(body.email), CONTACT_RATE_PER_EMAIL],
  ] as const) {
    const limit = await hitRateLimit(scope, key, rule);
    if (!limit.allowed) throw tooManyMessages(limit.secondsLeft);
  }
  const name = headerSafe(body.name);
  const email = headerSafe(body.email);
  const subject = headerSafe(body.subject);
  const saved = await putContactMessage({ name, email, subject, message: body.message });
  await sendMail({
    to: env().SUPPORT_EMAIL,
    replyTo: email,
    subject: `[Contact] ${subject}`,
    text: [
      'New message from the contact form.',
      '',
      `Name: ${name}`,
      `Email: ${email}`,
      `Subject: ${subject}`,
      `Received: ${saved.createdAt} (id ${saved.id})`,
      '',
      body.message,
    ].join('\n'),
  });
  return { ok: true as const };
});
