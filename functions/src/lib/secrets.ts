import * as z from 'zod';
import { SECRETS, type SecretName } from '@app/shared/secrets';
import { processScope } from './process-scope.ts';

/**
 * Secrets, each read on its own (shared/src/secrets.ts): on AWS from its own Secrets Manager
 * secret, whose ARN the stack puts in the secret's `idVariable` of only the functions whose routes
 * read it, once per container; locally and in tests from the environment's `localVariable` (the
 * local server fills defaults, see local/app.ts).
 *
 * While a route's request runs (`withRouteSecrets`, called by the handler wrapper), reading a
 * secret the route table does not give that route throws, as AWS would refuse it: a handler that
 * starts reading a new secret fails its tests until its route declares it.
 */

/** The token key and the origin secret: at least 32 characters, or nothing is served (fail closed). */
const strong = z.string().min(32);
const STRONG: ReadonlySet<SecretName> = new Set<SecretName>(['tokenKey', 'origin']);

/** The running request's route and the secrets it may read (one scope for every copy of this module in the process). */
const scope = processScope<{ route: string; secrets: ReadonlySet<SecretName> }>('route-secrets');

/** Runs `fn` (a request of `route`) allowing reads of exactly these secrets. */
export function withRouteSecrets<T>(route: string, secrets: readonly SecretName[], fn: () => T): T {
  return scope.run({ route, secrets: new Set(secrets) }, fn);
}

/** A read of a secret the route table does not give the running route. */
export class UndeclaredSecretError extends Error {
  override name = 'UndeclaredSecretError';
}

const cached = new Map<SecretName, Promise<string | undefined>>();

/**
 * The value of a secret, or undefined when it has none: locally its variable is unset or empty; on
 * AWS the secret holds no value yet (an operator sets it, README). The token key and the origin
 * secret, when set, must be strong; on AWS they must be set.
 */
export function secret(name: SecretName): Promise<string | undefined> {
  const running = scope.getStore();
  if (running && !running.secrets.has(name)) {
    return Promise.reject(
      new UndeclaredSecretError(`route ${running.route} read the secret ${name}, which the route table does not give it (shared/src/routes.ts: routeSecrets)`),
    );
  }
  let value = cached.get(name);
  if (!value) {
    value = load(name).catch((err: unknown) => {
      cached.delete(name);
      throw err;
    });
    cached.set(name, value);
  }
  return value;
}

async function load(name: SecretName): Promise<string | undefined> {
  const { idVariable, localVariable } = SECRETS[name];
  const id = process.env[idVariable];
  if (id) {
    const stored = await fromSecretsManager(id);
    return STRONG.has(name) ? strong.parse(stored) : stored || undefined;
  }
  // On Lambda a secret without its variable is one the function has no access to.
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error(`this function is not given the secret ${name} (${idVariable} is unset)`);
  const local = process.env[localVariable] || undefined;
  return STRONG.has(name) && local !== undefined ? strong.parse(local) : local;
}

/** The secret's current value; undefined for a secret created without one (Secrets Manager: no AWSCURRENT version). */
async function fromSecretsManager(id: string): Promise<string | undefined> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  try {
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: id }));
    return out.SecretString;
  } catch (err) {
    // By name, not instanceof: the SDK may be loaded in another realm than this module (vitest's VM pools).
    if ((err as { name?: unknown }).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
}

/** Whether this secret is read from Secrets Manager (its variable is set), as on AWS. */
export const fromAws = (name: SecretName): boolean => Boolean(process.env[SECRETS[name].idVariable]);

/**
 * The value CloudFront adds to every request it forwards to the API (`ORIGIN_SECRET_HEADER`), so
 * only requests through CloudFront are served; locally normally unset: no check, the local server
 * is the origin.
 */
export const originSecret = (): Promise<string | undefined> => secret('origin');

/** Tests and the local server change the variables; this forgets the values read. */
export function resetSecrets(): void {
  cached.clear();
}
