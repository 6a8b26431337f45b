import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  ResponseType,
  RestApi,
  type Stage,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import { type CfnResource, Fn, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { routes, routeSecrets, type RouteDef } from '@app/shared/routes';
import { RELAY_HANDLER } from '@app/shared/relay';
import type { SecretName } from '@app/shared/secrets';
import { ApiFunction, DEFAULT_RESERVED_CONCURRENCY, LOG_RETENTION } from './api-function.ts';
import { DEFAULT_THROTTLE, methodThrottles } from './throttling.ts';

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
  // The route table's key (`POST /api/auth/login`): the REST API's resource path is the route's path.
  routeKey: '"$context.httpMethod $context.resourcePath"',
  path: '"$context.path"',
  status: '$context.status',
  protocol: '"$context.protocol"',
  responseLength: '"$context.responseLength"',
  latencyMs: '"$context.responseLatency"',
  integrationLatencyMs: '"$context.integrationLatency"',
  integrationStatus: '"$context.integration.status"',
  integrationError: '"$context.integration.error"',
  lambdaRequestId: '"$context.integration.requestId"',
  error: '"$context.error.message"',
  wafResponse: '"$context.wafResponseCode"',
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

const pascal = (name: string): string => name.replace(/(^|[-_/])(\w)/g, (_m, _s, c: string) => c.toUpperCase());

/** Construct id of a route's function: `register` -> `RegisterRoute`. */
export const routeConstructId = (name: string): string => `${pascal(name)}Route`;

/**
 * Construct id of the nested stack holding a handler's function: one per handler folder,
 * `auth/login` -> `AuthFunctions`. CloudFormation allows 500 resources in one template; each
 * function brings four (log group, role, policy, function), so the functions live in nested
 * stacks of their feature, deployed in parallel, and the parent keeps what API Gateway needs
 * per route (resource, method, invoke permission).
 */
export const functionStackId = (handler: string): string => `${pascal(handler.split('/')[0]!)}Functions`;

/** The REST API's one stage: the first segment of every execute-api path (CloudFront's origin path). */
export const API_STAGE_NAME = 'v1';
/** A held request's function runs this much past the hold (reads, the answer); 20 + 5 s stays under API Gateway's 29 s integration timeout. */
export const HOLD_MARGIN_SECONDS = 5;
/** A route that holds requests runs at Lambda's least memory: its billed time is mostly waiting (docs/live.md weighs it). */
export const HOLD_MEMORY_MB = 128;

/** The JSON `{error, code}` body API Gateway itself answers with, like the handler wrapper's. */
const gatewayError = (error: string, code: string) => JSON.stringify({ error, code });

/**
 * The REST API (regional endpoint, Lambda proxy integrations: payload 1.0) with one function per
 * route-table entry, derived from the table alone: a method per route on the resource of its path,
 * on one stage with throttling (lib/throttling.ts) and a JSON access log. Authentication is done in
 * the handlers (auth 'user'/'pro' by token, 'stripe' by signature), so no API Gateway authorizer
 * is attached to any method. The stage's own web ACL (lib/edge.ts) lets only CloudFront through.
 * No binary media types: every body reaches the handlers as text, the Stripe webhook's JSON byte
 * for byte.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  /** The deployed stage: throttling, access logs, the web ACL. */
  readonly stage: Stage;
  /** The stage's access log (one JSON line per request). */
  readonly accessLogs: LogGroup;
  /** The route table the API was built from. */
  readonly routes: Readonly<Record<string, RouteDef>>;
  /** Route name (route-table key) -> its function. */
  readonly functions = new Map<string, LambdaFunction>();
  /** The API's host name, e.g. `abc123.execute-api.us-east-1.amazonaws.com` (for a CloudFront origin). */
  readonly domainName: string;
  /** The path CloudFront puts before every request's: the stage, `/v1`. */
  readonly originPath = `/${API_STAGE_NAME}`;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const table: Readonly<Record<string, RouteDef>> = props.routes ?? routes;
    this.routes = table;
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: LOG_RETENTION,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.restApi = new RestApi(this, 'RestApi', {
      // API Gateway's metrics of a REST API are by name (ApiName, Stage): one name per stack.
      restApiName: `${Stack.of(this).stackName}-api`,
      description: 'Live Transcribe API (same origin as the site, behind CloudFront)',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Execution logging would need the account-wide API Gateway logging role: none is made here.
      cloudWatchRole: false,
      deployOptions: {
        stageName: API_STAGE_NAME,
        description: 'Behind CloudFront: its web ACL admits only requests carrying the origin secret',
        throttlingRateLimit: DEFAULT_THROTTLE.rateLimit,
        throttlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
        methodOptions: Object.fromEntries(
          [...methodThrottles(table)].map(([path, t]) => [path, { throttlingRateLimit: t.rateLimit, throttlingBurstLimit: t.burstLimit }]),
        ),
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    // RestApi's own `Endpoint` output: the stack's ApiUrl says the same with a description.
    this.restApi.node.tryRemoveChild('Endpoint');
    this.stage = this.restApi.deploymentStage;
    this.domainName = Fn.join('.', [this.restApi.restApiId, 'execute-api', Stack.of(this).region, Stack.of(this).urlSuffix]);

    // What API Gateway answers by itself, as JSON `{error, code}` like every handler answer: no
    // such route (a missing method or path reads as a missing token to API Gateway), its throttle,
    // the web ACL's block, and any other refusal.
    const responses: [string, ResponseType, string, string][] = [
      ['NotFound', ResponseType.MISSING_AUTHENTICATION_TOKEN, '404', gatewayError('Not found', 'not_found')],
      ['Throttled', ResponseType.THROTTLED, '429', gatewayError('Too many requests. Please try again in a moment.', 'throttled')],
      ['WafFiltered', ResponseType.WAF_FILTERED, '403', gatewayError('Forbidden', 'forbidden')],
      ['Default4xx', ResponseType.DEFAULT_4XX, '', '{"error":$context.error.messageString,"code":"$context.error.responseType"}'],
      ['Default5xx', ResponseType.DEFAULT_5XX, '', gatewayError('Something went wrong on our side. Please try again.', 'server_error')],
    ];
    for (const [rid, type, statusCode, body] of responses) {
      this.restApi.addGatewayResponse(rid, {
        type,
        statusCode: statusCode || undefined,
        templates: { 'application/json': body },
        responseHeaders: { 'content-type': "'application/json; charset=utf-8'", 'cache-control': "'no-store'" },
      });
    }

    const environment: Record<string, string> = {
      TABLE_NAME: props.table.tableName,
      MAIL_TRANSPORT: 'ses',
      MAIL_FROM: props.mailFrom,
      SUPPORT_EMAIL: props.supportEmail,
      STRIPE_PRICE_USD: props.stripePrices.USD,
      STRIPE_PRICE_BRL: props.stripePrices.BRL,
      CAPTCHA_MODE: 'recaptcha',
    };

    const reserved = props.reservedConcurrency ?? DEFAULT_RESERVED_CONCURRENCY;
    const stacks = new Map<string, NestedStack>();
    const stackOf = (handler: string): NestedStack => {
      const id = functionStackId(handler);
      let stack = stacks.get(id);
      if (!stack) {
        stack = new NestedStack(this, id, { description: `Route functions of ${handler.split('/')[0]!} (nested in ${Stack.of(this).stackName})` });
        stacks.set(id, stack);
      }
      return stack;
    };
    for (const [name, route] of Object.entries(table)) {
      const fn = new ApiFunction(stackOf(route.handler), routeConstructId(name), {
        handler: route.handler,
        // The caption relay's handler too: one esbuild run builds every function of the stack.
        bundledWith: [...Object.values(table).map((r) => r.handler), RELAY_HANDLER],
        table: props.table,
        tableActions: route.table,
        tableIndexes: route.indexes,
        secrets: Object.fromEntries(routeSecrets(name, route).map((s) => [s, props.secrets[s]])),
        mailIdentity: route.mail ? props.mailIdentity : undefined,
        environment,
        production: props.production,
        reservedConcurrency: reserved[name],
        // A long poll (the live view) holds a request up to holdSeconds: the function runs a little longer.
        timeoutSeconds: route.cache?.holdSeconds ? route.cache.holdSeconds + HOLD_MARGIN_SECONDS : undefined,
        // Billed for the time it waits (mostly idle, a read every LIVE_HOLD_CHECK_MS): the least memory.
        memoryMb: route.cache?.holdSeconds ? HOLD_MEMORY_MB : undefined,
      }).fn;
      this.functions.set(name, fn);
      // One Lambda permission per method (for the deployed stage only: no console test invocations).
      const method = this.restApi.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false }), { operationName: name });
      NagSuppressions.addResourceSuppressions(method.node.defaultChild as CfnResource, [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "Authorization happens in the one handler wrapper (functions/src/lib/http.ts), from the route table's auth level: 'user' and 'pro' routes require a valid session token (HS256, checked against the user's tokenVersion), 'stripe' Stripe's signature on the raw body, and 'none' routes are public by design. Before that, the stage's web ACL blocks every request without the origin secret only CloudFront sends, and the wrapper refuses (403) any that got past it.",
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            "No Cognito user pool: accounts, passwords (scrypt) and session tokens are the product's own, checked by the handler wrapper from the route table's auth level; an API Gateway authorizer would check nothing the wrapper does not.",
        },
      ]);
    }

    NagSuppressions.addResourceSuppressions(this.restApi.node.defaultChild as CfnResource, [
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "Every request is validated by the one handler wrapper against the route table's zod schemas (body, query, path), the same schemas the web client is typed from, answering 400 or 404 JSON with the failing field; API Gateway's JSON-schema validation would be a second, drifting copy of them.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.stage.node.defaultChild as CfnResource, [
      {
        id: 'AwsSolutions-APIG6',
        reason:
          "No execution logs: they need the account-wide API Gateway CloudWatch role (one AWS::ApiGateway::Account per account and region, which a stack owning it would take from every other API). The access log has a JSON line per request with status, latencies, the integration's status and error, Lambda's request id and API Gateway's error message, and each function logs every request it handles.",
      },
    ]);
  }

  /** Sets APP_URL (the public origin used in mail links and Stripe return URLs) on every function. */
  setAppUrl(url: string): void {
    for (const fn of this.functions.values()) fn.addEnvironment('APP_URL', url);
  }
}
