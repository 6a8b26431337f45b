import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, LogGroupLogDestination, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import { Fn, RemovalPolicy } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { routes, routeSecrets, type RouteDef } from '@app/shared/routes';
import type { SecretName } from '@app/shared/secrets';
import { ApiFunction, DEFAULT_RESERVED_CONCURRENCY, LOG_RETENTION } from './api-function.ts';
import { DEFAULT_THROTTLE, routeKey, routeThrottles } from './throttling.ts';

/**
 * One JSON line per request in the API access log. `status` is a number (metric filters compare
 * it); `requestId` is also each function log line's `correlation_id`, `lambdaRequestId` its
 * `function_request_id`.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '"$context.requestId"',
  time: '"$context.requestTime"',
  ip: '"$context.identity.sourceIp"',
  method: '"$context.httpMethod"',
  routeKey: '"$context.routeKey"',
  path: '"$context.path"',
  status: '$context.status',
  protocol: '"$context.protocol"',
  responseLength: '"$context.responseLength"',
  latencyMs: '"$context.responseLatency"',
  integrationLatencyMs: '"$context.integrationLatency"',
  integrationStatus: '"$context.integrationStatus"',
  integrationError: '"$context.integrationErrorMessage"',
  lambdaRequestId: '"$context.integration.requestId"',
  error: '"$context.error.message"',
  userAgent: '"$context.identity.userAgent"',
} as const;
export const ACCESS_LOG_FORMAT = `{${Object.entries(ACCESS_LOG_FIELDS).map(([k, v]) => `"${k}":${v}`).join(',')}}`;

export interface ApiProps {
  readonly table: ITableV2;
  /** Every secret of the stack; each function is given the ones its route reads (routeSecrets), no other. */
  readonly secrets: Readonly<Record<SecretName, ISecret>>;
  readonly mailIdentity: IEmailIdentity;
  readonly mailFrom: string;
  /** Recipient of contact-form messages (SUPPORT_EMAIL). */
  readonly supportEmail: string;
  readonly stripePrices: { USD: string; BRL: string };
  readonly production: boolean;
  /** Defaults to the route table of `@app/shared/routes`. */
  readonly routes?: Readonly<Record<string, RouteDef>>;
  /** Route name -> concurrent executions reserved for its function; defaults to DEFAULT_RESERVED_CONCURRENCY. */
  readonly reservedConcurrency?: Readonly<Record<string, number>>;
}

/** Construct id of a route's function: `register` -> `RegisterRoute`. */
export const routeConstructId = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}Route`;

/**
 * The HTTP API (payload v2) with one function per route-table entry, derived from the table alone,
 * on a `$default` stage with throttling (lib/throttling.ts) and a JSON access log.
 * Authentication is done in the handlers (auth 'user'/'pro' by token, 'stripe' by signature), so no
 * API Gateway authorizer is attached to any route.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /** The `$default` stage: throttling and access logs. */
  readonly stage: HttpStage;
  /** The stage's access log (one JSON line per request). */
  readonly accessLogs: LogGroup;
  /** The route table the API was built from. */
  readonly routes: Readonly<Record<string, RouteDef>>;
  /** Route name (route-table key) -> its function. */
  readonly functions = new Map<string, LambdaFunction>();
  /** The API's host name, e.g. `abc123.execute-api.eu-west-1.amazonaws.com` (for a CloudFront origin). */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Live Transcribe API (same origin as the site, behind CloudFront)',
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: LOG_RETENTION,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Same construct path as HttpApi's own default stage (Api/HttpApi/DefaultStage).
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: DEFAULT_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    // apiEndpoint is `https://<id>.execute-api.<region>.<suffix>`: take the host part.
    this.domainName = Fn.select(2, Fn.split('/', this.httpApi.apiEndpoint));

    const environment: Record<string, string> = {
      TABLE_NAME: props.table.tableName,
      MAIL_TRANSPORT: 'ses',
      MAIL_FROM: props.mailFrom,
      SUPPORT_EMAIL: props.supportEmail,
      STRIPE_PRICE_USD: props.stripePrices.USD,
      STRIPE_PRICE_BRL: props.stripePrices.BRL,
      CAPTCHA_MODE: 'recaptcha',
    };

    const table: Readonly<Record<string, RouteDef>> = props.routes ?? routes;
    this.routes = table;
    const throttles = routeThrottles(table);
    const reserved = props.reservedConcurrency ?? DEFAULT_RESERVED_CONCURRENCY;
    for (const [name, route] of Object.entries(table)) {
      const fn = new ApiFunction(this, routeConstructId(name), {
        handler: route.handler,
        bundledWith: Object.values(table).map((r) => r.handler),
        table: props.table,
        tableActions: route.table,
        tableIndexes: route.indexes,
        secrets: Object.fromEntries(routeSecrets(name, route).map((s) => [s, props.secrets[s]])),
        mailIdentity: route.mail ? props.mailIdentity : undefined,
        environment,
        production: props.production,
        reservedConcurrency: reserved[name],
      }).fn;
      this.functions.set(name, fn);
      const created = this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${routeConstructId(name)}Integration`, fn),
      });
      // API Gateway rejects route settings for a route key that does not exist yet.
      if (throttles.has(routeKey(route))) for (const r of created) this.stage.node.addDependency(r);
    }

    // On every route, now that all are added (children of the API).
    NagSuppressions.addResourceSuppressions(
      this.httpApi,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "Authorization happens in the one handler wrapper (functions/src/lib/http.ts), from the route table's auth level: 'user' and 'pro' routes require a valid session token (HS256, checked against the user's tokenVersion), 'stripe' Stripe's signature on the raw body, and 'none' routes are public by design. The wrapper first refuses (403) any request without the origin secret only CloudFront sends, so the API cannot be called around the distribution.",
        },
      ],
      true,
    );

    // Per-route throttles override the stage default for those routes (CloudFormation's own field names).
    if (throttles.size > 0) {
      (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
        [...throttles].map(([key, t]) => [key, { ThrottlingBurstLimit: t.burstLimit, ThrottlingRateLimit: t.rateLimit }]),
      );
    }
  }

  /** Sets APP_URL (the public origin used in mail links and Stripe return URLs) on every function. */
  setAppUrl(url: string): void {
    for (const fn of this.functions.values()) fn.addEnvironment('APP_URL', url);
  }
}
