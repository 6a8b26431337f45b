import type { App } from 'aws-cdk-lib';
import { reservedConcurrencyFromContext } from './api-function.ts';
import { parseOrigins } from './security-headers.ts';
import { LiveTranscribeStack, STACK_REGION, STAGES, type Stage } from './stack.ts';

/**
 * The CDK app's stack, made in `app` from its context (cdk.json or `-c key=value`):
 *   stage         dev | prod (default dev); the stack is LiveTranscribe-<stage>
 *   mailDomain    SES sending domain (default example.com, a placeholder)
 *   supportEmail  where contact-form messages go (default support@<mailDomain>)
 *   stripePriceUsd, stripePriceBrl  Stripe price ids of the monthly Pro plan
 *   domainName    optional custom domain for the site, with
 *   certificateArn  an ACM certificate for it in us-east-1
 *   alarmEmail    optional address subscribed to the alarm topic
 *   analyticsOrigins  comma-separated https origins the CSP allows for analytics / session recording
 *   surveyOrigin  https origin of the embedded survey form (a CSP frame source)
 *   tableName     use this existing table instead of creating one (after a point-in-time restore)
 *   tableStreamArn  that table's stream (KEYS_ONLY or wider), for the caption relay (none without it)
 *   originSecretVersion  the origin secret's version CloudFront and the API's web ACL use (after a rotation)
 *   webhookReservedConcurrency, loginReservedConcurrency  executions reserved for those functions
 *                 (defaults 10 and 20; 0 reserves none, for accounts with a low concurrency limit)
 * The stack is pinned to us-east-1 (STACK_REGION: CloudFront's web ACL and metrics live there
 * only); the account is left to the CLI's credentials, so `cdk synth` needs none.
 */
export function defineStack(app: App): LiveTranscribeStack {
  const ctx = (key: string): string | undefined => {
    const v: unknown = app.node.tryGetContext(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };

  const stage = (ctx('stage') ?? 'dev') as Stage;
  if (!STAGES.includes(stage)) throw new Error(`context stage must be one of ${STAGES.join(', ')}; got "${stage}"`);

  return new LiveTranscribeStack(app, `LiveTranscribe-${stage}`, {
    env: { region: STACK_REGION },
    stage,
    mailDomain: ctx('mailDomain') ?? 'example.com',
    supportEmail: ctx('supportEmail'),
    stripePrices: { USD: ctx('stripePriceUsd') ?? '', BRL: ctx('stripePriceBrl') ?? '' },
    domainName: ctx('domainName'),
    certificateArn: ctx('certificateArn'),
    alarmEmail: ctx('alarmEmail'),
    analyticsOrigins: parseOrigins(ctx('analyticsOrigins')),
    surveyOrigin: ctx('surveyOrigin'),
    tableName: ctx('tableName'),
    tableStreamArn: ctx('tableStreamArn'),
    originSecretVersion: ctx('originSecretVersion'),
    reservedConcurrency: reservedConcurrencyFromContext(ctx),
    tags: { app: 'live-transcribe', stage },
  });
}
