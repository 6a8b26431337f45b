import { randomBytes, randomUUID } from 'node:crypto';
import { startAwsFake, callerOf, type AwsFake, type FakeAnswer } from './aws-fake.ts';

/**
 * A local Secrets Manager: enough of its JSON protocol (`X-Amz-Target: secretsmanager.GetSecretValue`,
 * `application/x-amz-json-1.1`) for the real `@aws-sdk/client-secrets-manager`, pointed at it with
 * `AWS_ENDPOINT_URL_SECRETS_MANAGER`. As on AWS:
 * - a caller reads only the secrets its grants name (an IAM policy's resources: the secrets' ARNs),
 *   anything else, an id that names no secret included, is AccessDeniedException;
 * - a secret created without a value answers ResourceNotFoundException (no AWSCURRENT version);
 * - a secret is found by its ARN, its name, or its ARN without the random suffix.
 * A caller granted `*` may read every secret, and an unknown id then is ResourceNotFoundException.
 */

export interface FakeSecret {
  /** `live-transcribe/dev/token-key`. */
  name: string;
  /** Unset: created without a value (as the stack creates the ones an operator sets). */
  value?: string;
}

export interface SecretsManagerFakeOptions {
  secrets: readonly FakeSecret[];
  /** For each caller (access key id), the ARNs it may read, or `*` for all; callers not listed are unknown to the fake's "account". */
  grants: (arnOf: (name: string) => string) => Readonly<Record<string, readonly string[] | '*'>>;
  region?: string;
}

export interface SecretsManagerFake extends AwsFake {
  /** The ARN of a secret, by name (AWS's form, with its six random characters). */
  arnOf: (name: string) => string;
}

const ACCOUNT = '000000000000';

const error = (type: string, message: string): FakeAnswer => ({
  status: 400,
  headers: { 'content-type': 'application/x-amz-json-1.1' },
  body: { __type: type, Message: message },
});

export async function startSecretsManagerFake(options: SecretsManagerFakeOptions): Promise<SecretsManagerFake> {
  const region = options.region ?? 'us-east-1';
  const secrets = options.secrets.map((s) => ({
    ...s,
    arn: `arn:aws:secretsmanager:${region}:${ACCOUNT}:secret:${s.name}-${randomBytes(6).toString('base64url').slice(0, 6)}`,
    versionId: randomUUID(),
    created: Date.now() / 1000,
  }));
  const arnOf = (name: string) => {
    const found = secrets.find((s) => s.name === name);
    if (!found) throw new Error(`the local Secrets Manager holds no secret ${name}`);
    return found.arn;
  };
  const grants = options.grants(arnOf);
  const find = (id: string) => secrets.find((s) => s.arn === id || s.name === id || s.arn.slice(0, -7) === id);

  const fake = await startAwsFake('Secrets Manager', async (req, body) => {
    const caller = callerOf(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.replace(/^secretsmanager\./, '');
    const input = (body ?? {}) as { SecretId?: unknown; VersionId?: unknown; VersionStage?: unknown };
    const secretId = typeof input.SecretId === 'string' ? input.SecretId : '';
    const secret = find(secretId);
    const answer = (a: FakeAnswer, outcome: string) => ({ answer: a, call: { caller, operation, subject: secret?.name ?? secretId, outcome } });
    const refuse = (type: string, message: string) => answer(error(type, message), type);

    if (req.method !== 'POST' || target !== 'secretsmanager.GetSecretValue') {
      return refuse('UnknownOperationException', `the local Secrets Manager answers only secretsmanager.GetSecretValue, not ${target || 'this request'}`);
    }
    const allowed = Object.hasOwn(grants, caller) ? grants[caller] : undefined;
    if (!allowed) return refuse('UnrecognizedClientException', 'The security token included in the request is invalid.');
    if (!secretId) return refuse('InvalidParameterException', 'You must provide a SecretId.');
    if (allowed !== '*' && !(secret && allowed.includes(secret.arn))) {
      return refuse(
        'AccessDeniedException',
        `User: arn:aws:sts::${ACCOUNT}:assumed-role/${caller}/${caller} is not authorized to perform: secretsmanager:GetSecretValue on resource: ${secretId} because no identity-based policy allows the secretsmanager:GetSecretValue action`,
      );
    }
    if (!secret) return refuse('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    const stage = input.VersionStage ?? 'AWSCURRENT';
    if (secret.value === undefined || stage !== 'AWSCURRENT' || (input.VersionId !== undefined && input.VersionId !== secret.versionId)) {
      return refuse('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${String(stage)}`);
    }
    return answer(
      {
        status: 200,
        headers: { 'content-type': 'application/x-amz-json-1.1' },
        body: {
          ARN: secret.arn,
          Name: secret.name,
          VersionId: secret.versionId,
          SecretString: secret.value,
          VersionStages: ['AWSCURRENT'],
          CreatedDate: secret.created,
        },
      },
      'ok',
    );
  });
  return { ...fake, arnOf };
}
