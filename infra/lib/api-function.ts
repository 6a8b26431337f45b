import * as path from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import * as fs from 'node:fs';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { TableAction, TableIndex } from '@app/shared/routes';
import { SECRETS, type SecretName } from '@app/shared/secrets';
import { bundleHandlers, LAMBDA_HANDLER } from './bundling.ts';
import { repoRoot } from './paths.ts';

/**
 * The latest Node.js runtime Lambda (and this aws-cdk-lib) offers. The bundles target an older
 * Node (HANDLER_BUNDLING.target), which it runs, and the sources stay runnable on the local
 * Node 20 that runs the tests and the local server.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/** How long function and API access logs are kept. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;
/** `service` of every structured log line (the Powertools field and variable name). */
export const LOG_SERVICE = 'live-transcribe';

/**
 * Concurrent executions reserved per route (route-table name), so a flood on other routes cannot
 * take every execution of the account from Stripe's webhook (plan changes must keep landing) or
 * from login. A reservation is also that function's ceiling: login's covers its API throttle
 * burst (lib/throttling.ts). Context `webhookReservedConcurrency` / `loginReservedConcurrency`
 * override them; 0 reserves nothing (and sets no ceiling).
 */
export const DEFAULT_RESERVED_CONCURRENCY: Readonly<Record<string, number>> = { stripeWebhook: 10, login: 20 };

/** Context key of each reservation. */
export const RESERVED_CONCURRENCY_CONTEXT: Readonly<Record<string, string>> = {
  stripeWebhook: 'webhookReservedConcurrency',
  login: 'loginReservedConcurrency',
};

/** The reservations from CDK context (`get` reads one key; unset keeps the default), checked. */
export function reservedConcurrencyFromContext(get: (key: string) => string | undefined): Record<string, number> {
  return Object.fromEntries(
    Object.entries(DEFAULT_RESERVED_CONCURRENCY).map(([route, fallback]) => {
      const key = RESERVED_CONCURRENCY_CONTEXT[route]!;
      const raw = get(key);
      if (raw === undefined) return [route, fallback];
      if (!/^\d+$/.test(raw)) throw new Error(`context ${key} must be a whole number of executions (0 reserves none); got "${raw}"`);
      return [route, Number(raw)];
    }),
  );
}

export interface ApiFunctionProps {
  /** Route-table handler name, e.g. `auth/login` = functions/src/handlers/auth/login.ts. */
  readonly handler: string;
  /** Every handler of the stack's route table: they are bundled together, in one esbuild run (bundling.ts). */
  readonly bundledWith: readonly string[];
  readonly table: ITableV2;
  /** Exactly the DynamoDB actions the handler uses; nothing else on the table is granted. */
  readonly tableActions: readonly TableAction[];
  /** The global indexes its Queries read: granted by name with those actions; no other index. */
  readonly tableIndexes?: readonly TableIndex[];
  /**
   * The secrets the handler reads (routeSecrets): each one's ARN goes in its `idVariable`, and the
   * function may read these and no other.
   */
  readonly secrets: Readonly<Partial<Record<SecretName, ISecret>>>;
  /** Given only to functions that send mail. */
  readonly mailIdentity?: IEmailIdentity;
  readonly environment: Record<string, string>;
  readonly production: boolean;
  /** Concurrent executions reserved for (and capping) this function; 0 or unset: none. */
  readonly reservedConcurrency?: number;
  /** Seconds a call may run (default 10): a route that holds requests (its cache's `holdSeconds`) gets more. */
  readonly timeoutSeconds?: number;
  /** Memory in MB (default 512): a route that holds requests, billed for the time it waits, gets less. */
  readonly memoryMb?: number;
  /** Defaults to `Route handler <handler>`. */
  readonly description?: string;
}

/** The top-level stack a construct is in, through any nested stacks. */
export function rootStack(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

/**
 * A handler's code asset: its folder of the stack's one bundling run (bundleHandlers), copied in
 * by CDK's local bundling (never Docker; the image is never pulled), hashed by what was built.
 * Skipped like any bundling when a stack is synthesized without it (`aws:cdk:bundling-stacks`).
 */
function handlerCode(handler: string, bundledWith: readonly string[]): Code {
  return Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-bundling-only'),
      // CDK reuses a staged asset for the same source folder and bundling options: the handler's name makes each its own.
      environment: { HANDLER: handler },
      local: {
        tryBundle(outputDir: string): boolean {
          fs.cpSync(path.join(bundleHandlers([handler, ...bundledWith]), handler), outputDir, { recursive: true });
          return true;
        },
      },
    },
  });
}

/**
 * One route-table handler on Lambda, with the project's fixed defaults: Node 24 on ARM64,
 * one minified ESM file built by the local esbuild (never Docker) with everything bundled in,
 * the AWS SDK included (nothing external, HANDLER_BUNDLING), the CommonJS `require` banner and
 * a source map (without sources) that Node applies to stack traces, 512 MB (scrypt at N=2^17
 * needs 128 MB of working memory and CPU), 10 s timeout (unless the route holds requests longer), logs kept a month, least-privilege
 * grants, and reserved concurrency when given.
 */
export class ApiFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);

    const secrets = Object.entries(props.secrets) as [SecretName, ISecret][];
    const logGroup = new LogGroup(this, 'Logs', {
      retention: LOG_RETENTION,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // Its own role with no AWS managed policy: writing its own log group is all of the basic
    // execution role it needs (the group exists, so no logs:CreateLogGroup, and no other group).
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description ?? `Route handler ${props.handler}`}: its table actions, secrets and log group`,
    });
    logGroup.grantWrite(role);

    this.fn = new LambdaFunction(this, 'Fn', {
      code: handlerCode(props.handler, props.bundledWith),
      role,
      handler: LAMBDA_HANDLER,
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      logGroup,
      // Lambda reads 0 as "no executions at all", so 0 here means no reservation.
      reservedConcurrentExecutions: props.reservedConcurrency || undefined,
      description: props.description ?? `Route handler ${props.handler}`,
      // METRICS_NAMESPACE: where the security events' metric lines (embedded metric format) count, the
      // (top-level) stack's name, as the alarms' other custom metrics.
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: LOG_SERVICE,
        METRICS_NAMESPACE: rootStack(this).stackName,
        ...props.environment,
        ...Object.fromEntries(secrets.map(([name, secret]) => [SECRETS[name].idVariable, secret.secretArn])),
      },
    });

    this.logGroup = logGroup;

    const actions = [...new Set(props.tableActions)];
    const indexes = [...new Set(props.tableIndexes ?? [])];
    if (indexes.length > 0 && !actions.includes('Query')) throw new Error(`${props.handler}: reads the indexes ${indexes.join(', ')} without Query`);
    if (actions.length > 0) {
      this.fn.addToRolePolicy(new PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [props.table.tableArn] }));
    }
    if (indexes.length > 0) {
      this.fn.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes.map((index) => `${props.table.tableArn}/index/${index}`) }),
      );
    }

    if (secrets.length > 0) {
      this.fn.addToRolePolicy(
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secrets.map(([, secret]) => secret.secretArn) }),
      );
    }

    if (props.mailIdentity) {
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [props.mailIdentity.emailIdentityArn],
        }),
      );
    }
  }
}
