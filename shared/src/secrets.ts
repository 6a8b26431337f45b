/**
 * The secrets a route's function may read, each its own Secrets Manager secret on AWS
 * (`live-transcribe/<stage>/<name>`, a plain string). The stack gives a function the ARN of each
 * secret its route reads (`routeSecrets` in routes.ts) in that secret's `idVariable`, with read
 * access to it and to no other; locally and in tests the value is the `localVariable` of the
 * environment. Which route reads which is derived from the route table alone.
 */
export const SECRETS = {
  /** What CloudFront sends in ORIGIN_SECRET_HEADER; the handler wrapper requires it on every request. Generated. */
  origin: { name: 'origin', idVariable: 'ORIGIN_SECRET_ID', localVariable: 'ORIGIN_SECRET' },
  /** The HS256 key of session and maintenance-bypass tokens. Generated. */
  tokenKey: { name: 'token-key', idVariable: 'TOKEN_KEY_SECRET_ID', localVariable: 'JWT_SECRET' },
  /** The bot check's (reCAPTCHA v3) secret. Set by an operator. */
  botCheck: { name: 'bot-check', idVariable: 'BOT_CHECK_SECRET_ID', localVariable: 'RECAPTCHA_SECRET' },
  /** Stripe's secret API key (checkout, cancel, portal). Set by an operator. */
  stripeApiKey: { name: 'stripe-api-key', idVariable: 'STRIPE_API_KEY_SECRET_ID', localVariable: 'STRIPE_SECRET_KEY' },
  /** The signing secret of Stripe's webhook endpoint. Set by an operator. */
  stripeWebhookSigning: { name: 'stripe-webhook-signing', idVariable: 'STRIPE_WEBHOOK_SIGNING_SECRET_ID', localVariable: 'STRIPE_WEBHOOK_SECRET' },
} as const;

export type SecretName = keyof typeof SECRETS;
export const SECRET_NAMES = Object.keys(SECRETS) as SecretName[];

/** A secret's name in Secrets Manager. */
export const awsSecretName = (stage: string, secret: SecretName): string => `live-transcribe/${stage}/${SECRETS[secret].name}`;
