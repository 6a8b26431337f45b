import * as z from 'zod';
import { AUTOSAVE_SAVES_PER_MINUTE } from '@app/shared/constants';

/** The environment, parsed once per container. Every variable is documented in README.md. */
const schema = z.object({
  TABLE_NAME: z.string().min(1).default('live-transcribe'),
  /** Set locally and in tests: the DynamoDB Local endpoint. Unset on Lambda. */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  /** Public origin of the site, used in mail links and Stripe return URLs (those go to the caller's own origin instead when it is one of the site's: domain/origins.ts). */
  APP_URL: z.string().url().default('http://localhost:3000'),
  /** `outbox` writes mail to OUTBOX_DIR and the console; `ses` sends through SES. */
  MAIL_TRANSPORT: z.enum(['outbox', 'ses']).default('outbox'),
  OUTBOX_DIR: z.string().default('.data/outbox'),
  MAIL_FROM: z.string().default('Live Transcribe <no-reply@localhost>'),
  /** Where contact-form messages go (the sender is their reply-to). */
  SUPPORT_EMAIL: z.string().min(1).default('support@localhost'),
  /** Stripe price ids (recurring, monthly) per checkout currency; unused by the local checkout simulator. */
  STRIPE_PRICE_USD: z.string().optional(),
  STRIPE_PRICE_BRL: z.string().optional(),
  // The secrets' variables (on AWS `<SECRET>_SECRET_ID`, locally their values) are lib/secrets.ts's.
  /** `test`: without a secret, the local verifier (token `test-pass`). `recaptcha`: a secret is required. */
  CAPTCHA_MODE: z.enum(['test', 'recaptcha']).default('test'),
  /**
   * Have I Been Pwned's Pwned Passwords API (its range queries, lib/pwned-passwords.ts). The local
   * server and the tests point it at a local fake that speaks the same format.
   */
  PWNED_PASSWORDS_URL: z.string().url().default('https://api.pwnedpasswords.com'),
  /** scrypt cost as log2(N); 17 in production. Tests may lower it. */
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(17),
  /** Autosave saves one user may send a minute (429 past it). The load benchmark raises it to drive a few users flat out. */
  AUTOSAVE_SAVES_PER_MINUTE: z.coerce.number().int().min(1).default(AUTOSAVE_SAVES_PER_MINUTE),
});

export type Env = z.infer<typeof schema>;

let parsed: Env | undefined;
export function env(): Env {
  parsed ??= schema.parse(process.env);
  return parsed;
}
/** Tests and the local server set variables before first use; this forgets the parsed copy. */
export function resetEnv(): void {
  parsed = undefined;
}
