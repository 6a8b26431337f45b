import * as z from 'zod';
import { env } from './env.ts';

/**
 * Secrets: on AWS one Secrets Manager secret (JSON) read once per container;
 * locally the environment (the local server fills defaults, see local/start.ts).
 */
const secretsSchema = z.object({
  jwtSecret: z.string().min(32),
  recaptchaSecret: z.string().optional(),
  stripeSecretKey: z.string().optional(),
  stripeWebhookSecret: z.string().optional(),
});
export type Secrets = z.infer<typeof secretsSchema>;

let cached: Promise<Secrets> | undefined;

export function secrets(): Promise<Secrets> {
  cached ??= load().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function load(): Promise<Secrets> {
  const e = env();
  if (e.SECRETS_ID) {
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: e.SECRETS_ID }));
    return secretsSchema.parse(JSON.parse(out.SecretString ?? '{}'));
  }
  return secretsSchema.parse({
    jwtSecret: e.JWT_SECRET,
    recaptchaSecret: e.RECAPTCHA_SECRET || undefined,
    stripeSecretKey: process.env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: process.env.STRIPE_WEBHOOK_SECRET || undefined,
  });
}

let cachedOrigin: Promise<string | undefined> | undefined;

/**
 * The value CloudFront adds to every request it forwards to the API (`ORIGIN_SECRET_HEADER`), so
 * only requests through CloudFront are served. On AWS its own generated secret (ORIGIN_SECRET_ID),
 * read once per container; locally ORIGIN_SECRET, normally unset: no check, the local server is
 * the origin.
 */
export function originSecret(): Promise<string | undefined> {
  cachedOrigin ??= loadOrigin().catch((err: unknown) => {
    cachedOrigin = undefined;
    throw err;
  });
  return cachedOrigin;
}

async function loadOrigin(): Promise<string | undefined> {
  const e = env();
  if (e.ORIGIN_SECRET_ID) {
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: e.ORIGIN_SECRET_ID }));
    // Fail closed: a deployed API with an empty origin secret would serve anyone.
    return z.string().min(32).parse(out.SecretString);
  }
  return e.ORIGIN_SECRET || undefined;
}

export function resetSecrets(): void {
  cached = undefined;
  cachedOrigin = undefined;
}
