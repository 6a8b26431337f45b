import { randomBytes } from 'node:crypto';
import { SECRET_NAMES, SECRETS, type SecretName } from '@app/shared/secrets';
import { env } from '../lib/env.ts';
import type { AwsFake } from './aws-fake.ts';
import { bundlesByRouteKey, templateResources, type Bundle, type FunctionScope } from './bundles.ts';
import { withFunctionEnv, type FunctionEnv } from './function-env.ts';
import { startSecretsManagerFake, type SecretsManagerFake } from './secrets-manager-fake.ts';
import { addressOf, startSesFake } from './ses-fake.ts';

/**
 * The bundles pass (LOCAL_HANDLERS=bundles) runs the code paths that only run on AWS: each function
 * reads its secrets from Secrets Manager and sends mail through SES, both local fakes, and gets
 * what the synthesized template gives it:
 * - its own environment (function-env.ts): the ARN of each secret whose id variable the template
 *   sets on it and no other (the secrets' local variables are hidden from it), `MAIL_TRANSPORT=ses`,
 *   the fakes' endpoints, and credentials of its own (its logical id as access key id);
 * - on the fakes, the grants of its role's policies: `secretsmanager:GetSecretValue` on those
 *   secrets only (anything else is AccessDeniedException), `ses:SendEmail` only where granted.
 * The secrets hold what `npm start` uses (their local variables: JWT_SECRET is the token key), a
 * value generated where the stack generates one (origin: the local server then sends it, as
 * CloudFront does), and no value otherwise (the bot check: the test verifier of CAPTCHA_MODE=test).
 * Stripe's two secrets stay local variables: read from Secrets Manager, billing would leave the
 * local checkout simulator for Stripe's API, which has no fake here.
 */

const LOCAL_ONLY: ReadonlySet<SecretName> = new Set<SecretName>(['stripeApiKey', 'stripeWebhookSigning']);

export interface LocalAws {
  secretsManager: SecretsManagerFake;
  ses: AwsFake;
  /** The origin secret's value, which the local server sends in ORIGIN_SECRET_HEADER as CloudFront does. */
  originSecret: string;
  /** Runs a bundle's code as its function (bundleLoader's scope). */
  scope: FunctionScope;
  /** The variables a function sees on top of the process's. */
  functionEnv: (bundle: Bundle) => FunctionEnv;
  stop: () => Promise<void>;
}

/** A template secret's SecretName, by the last segment of its name (`live-transcribe/dev/token-key`). */
const secretNamed = (name: string): SecretName | undefined => SECRET_NAMES.find((s) => name.endsWith(`/${SECRETS[s].name}`));

const grantsOf = (bundle: Bundle, action: string) => bundle.permissions.filter((p) => p.actions.includes(action)).flatMap((p) => p.resources);

export async function startLocalAws(options: { cdkOut: string; outboxDir: string }): Promise<LocalAws> {
  const bundles = [...bundlesByRouteKey(options.cdkOut).values()];
  const templateSecrets = templateResources(options.cdkOut, 'AWS::SecretsManager::Secret');
  const names = new Map<string, string>();
  const secrets = [...templateSecrets].map(([logicalId, props]) => {
    const name = String(props.Name);
    names.set(logicalId, name);
    const which = secretNamed(name);
    const local = which ? process.env[SECRETS[which].localVariable] || undefined : undefined;
    return { name, value: local ?? (props.GenerateSecretString ? randomBytes(48).toString('base64url') : undefined) };
  });
  const originName = secrets.find((s) => secretNamed(s.name) === 'origin');
  if (!originName?.value) throw new Error(`${options.cdkOut} has no origin secret`);
  const originSecret = originName.value;

  /** A template reference to one of its secrets (`{Ref: <logical id>}`), as the secret's name. */
  const referenced = (ref: unknown): string | undefined => {
    const id = (ref as { Ref?: unknown } | undefined)?.Ref;
    return typeof id === 'string' ? names.get(id) : undefined;
  };

  const secretsManager = await startSecretsManagerFake({
    secrets,
    region: env().AWS_REGION,
    grants: (arnOf) =>
      Object.fromEntries(
        bundles.map((b) => {
          const resources = grantsOf(b, 'secretsmanager:GetSecretValue');
          if (resources.includes('*')) return [b.functionId, '*'];
          return [b.functionId, resources.flatMap((r) => (referenced(r) ? [arnOf(referenced(r)!)] : []))];
        }),
      ),
  });
  const ses = await startSesFake({
    outboxDir: options.outboxDir,
    identities: [addressOf(env().MAIL_FROM).split('@').pop()!],
    senders: new Set(bundles.filter((b) => grantsOf(b, 'ses:SendEmail').length > 0).map((b) => b.functionId)),
    region: env().AWS_REGION,
  });

  const envs = new Map<string, FunctionEnv>();
  const functionEnv = (bundle: Bundle): FunctionEnv => {
    let vars = envs.get(bundle.functionId);
    if (!vars) {
      const own: Record<string, string | undefined> = {
        MAIL_TRANSPORT: 'ses',
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint,
        AWS_ENDPOINT_URL_SESV2: ses.endpoint,
        AWS_ACCESS_KEY_ID: bundle.functionId,
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: undefined,
        AWS_PROFILE: undefined,
      };
      for (const s of SECRET_NAMES) {
        if (LOCAL_ONLY.has(s)) continue;
        const { idVariable, localVariable } = SECRETS[s];
        const set = bundle.environment[idVariable] as unknown;
        const name = set === undefined ? undefined : referenced(set);
        if (set !== undefined && !name) throw new Error(`${bundle.functionId} sets ${idVariable} to something other than a secret of the stack: ${JSON.stringify(set)}`);
        own[idVariable] = name && secretsManager.arnOf(name);
        own[localVariable] = undefined;
      }
      vars = own;
      envs.set(bundle.functionId, vars);
    }
    return vars;
  };

  return {
    secretsManager,
    ses,
    originSecret,
    functionEnv,
    scope: (bundle, fn) => withFunctionEnv(functionEnv(bundle), fn),
    stop: async () => {
      await Promise.all([secretsManager.stop(), ses.stop()]);
    },
  };
}
