import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import { Fn } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { routes, type RouteDef } from '@app/shared/routes';
import { ApiFunction } from './api-function.ts';

export interface ApiProps {
  readonly table: ITableV2;
  readonly secret: ISecret;
  readonly mailIdentity: IEmailIdentity;
  readonly mailFrom: string;
  /** Recipient of contact-form messages (SUPPORT_EMAIL). */
  readonly supportEmail: string;
  readonly stripePrices: { USD: string; BRL: string };
  readonly production: boolean;
  /** Defaults to the route table of `@app/shared/routes`. */
  readonly routes?: Readonly<Record<string, RouteDef>>;
}

/** Construct id of a route's function: `register` -> `RegisterRoute`. */
export const routeConstructId = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}Route`;

/**
 * The HTTP API (payload v2) with one function per route-table entry, derived from the table alone.
 * Authentication is done in the handlers (auth 'user'/'pro' by token, 'stripe' by signature), so no
 * API Gateway authorizer is attached to any route.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /** Route name (route-table key) -> its function. */
  readonly functions = new Map<string, NodejsFunction>();
  /** The API's host name, e.g. `abc123.execute-api.eu-west-1.amazonaws.com` (for a CloudFront origin). */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Live Transcribe API (same origin as the site, behind CloudFront)',
      createDefaultStage: true,
    });
    // apiEndpoint is `https://<id>.execute-api.<region>.<suffix>`: take the host part.
    this.domainName = Fn.select(2, Fn.split('/', this.httpApi.apiEndpoint));

    const environment: Record<string, string> = {
      TABLE_NAME: props.table.tableName,
      SECRETS_ID: props.secret.secretArn,
      MAIL_TRANSPORT: 'ses',
      MAIL_FROM: props.mailFrom,
      SUPPORT_EMAIL: props.supportEmail,
      STRIPE_PRICE_USD: props.stripePrices.USD,
      STRIPE_PRICE_BRL: props.stripePrices.BRL,
      CAPTCHA_MODE: 'recaptcha',
    };

    const table: Readonly<Record<string, RouteDef>> = props.routes ?? routes;
    for (const [name, route] of Object.entries(table)) {
      const fn = new ApiFunction(this, routeConstructId(name), {
        handler: route.handler,
        table: props.table,
        tableActions: route.table,
        secret: props.secret,
        mailIdentity: route.mail ? props.mailIdentity : undefined,
        environment,
        production: props.production,
      }).fn;
      this.functions.set(name, fn);
      this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${routeConstructId(name)}Integration`, fn),
      });
    }
  }

  /** Sets APP_URL (the public origin used in mail links and Stripe return URLs) on every function. */
  setAppUrl(url: string): void {
    for (const fn of this.functions.values()) fn.addEnvironment('APP_URL', url);
  }
}
