import type { SecretValue } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { routes, type RouteDef, type RouteName } from '@app/shared/routes';

/**
 * AWS WAF at both ends of CloudFront (figures and the options weighed: docs/edge.md):
 * - OriginLock, a regional web ACL on the REST API's stage: it blocks every request but those
 *   carrying the origin secret CloudFront sends, before API Gateway counts, throttles or invokes
 *   anything;
 * - EdgeFirewall, CloudFront's web ACL (it must live in us-east-1, as the whole stack does):
 *   rate-based rules per client address, one on every request but the live routes, tighter ones on
 *   the costly public routes, and room-sized ones on the live view and the viewers' pings.
 */

/** Every rate-based rule counts a client address's requests over this many seconds. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Requests one client address may send a route in RATE_WINDOW_SECONDS before CloudFront's web ACL
 * answers it 429 until its rate falls again. Keyed by route-table name: the rule matches the
 * route's method and path as the table spells them. A crowd shares one address (a room's Wi-Fi,
 * a school's NAT), so each is sized for one.
 */
export const ROUTE_RATE_LIMITS = {
  // Sign-ins of a room of ~600 arriving in 5 minutes is 120 a minute.
  login: 150,
  // The same room signing up over 10 minutes is 60 a minute.
  register: 100,
  // One email may ask once an hour (the handler); a room of people who forgot is a few a minute.
  forgotPassword: 20,
  // A message each from a handful of people at once.
  contact: 10,
  // A room of ~600 viewers on one address polls twice a second each: 72,000 a minute.
  viewLiveShare: 100_000,
  // The same room pings every 50 s: 720 a minute. The pings' only per-address limit: the handler keeps none (docs/live.md).
  recordLiveViewer: 1_440,
} as const satisfies Partial<Record<RouteName, number>>;

/** The routes whose own rule replaces the one on every other request: a room's live traffic is far above it. */
export const LIVE_RATE_ROUTES = ['viewLiveShare', 'recordLiveViewer'] as const satisfies readonly (keyof typeof ROUTE_RATE_LIMITS)[];

/**
 * Every other request (the SPA's files, every other route) one address may send in the window:
 * a room of ~600 opening the viewer page at once loads about 20 files each, 12,000 requests.
 */
export const OTHER_RATE_LIMIT = 20_000;

/** The JSON answer of a request over a rate limit (the key of the web ACL's custom response body). */
export const RATE_LIMITED_BODY = 'rate-limited';
const RATE_LIMITED_JSON = JSON.stringify({
  error: 'Too many requests from your network. Please wait a minute and try again.',
  code: 'rate_limited',
});

/** A route's path as a WAF regular expression: each `{parameter}` one path segment, a trailing slash allowed. */
export const pathRegex = (path: string): string =>
  `^${path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')}/?$`;

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** A request for `route`: its method and its path. */
export function routeMatch(route: Pick<RouteDef, 'method' | 'path'>): CfnWebACL.StatementProperty {
  return {
    andStatement: {
      statements: [
        {
          byteMatchStatement: {
            fieldToMatch: { method: {} },
            positionalConstraint: 'EXACTLY',
            searchString: route.method,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        {
          regexMatchStatement: {
            fieldToMatch: { uriPath: {} },
            regexString: pathRegex(route.path),
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      ],
    },
  };
}

const anyOf = (statements: CfnWebACL.StatementProperty[]): CfnWebACL.StatementProperty =>
  statements.length === 1 ? statements[0]! : { orStatement: { statements } };

export interface OriginLockProps {
  /** The REST API stage the web ACL guards. */
  readonly stage: Stage;
  /** The value CloudFront sends in ORIGIN_SECRET_HEADER (a secret reference, resolved at deploy). */
  readonly originSecret: SecretValue;
}

/**
 * The regional web ACL on the API stage: Block by default, Allow only a request whose
 * ORIGIN_SECRET_HEADER is exactly the origin secret (the one header, no transformation). AWS WAF
 * runs before API Gateway, so a request around CloudFront costs no API request, no throttle
 * token and no invocation. The secret reaches the rule as CloudFront's header does, a dynamic
 * reference resolved by CloudFormation at deploy: a new value applies to both with a deploy.
 */
export class OriginLock extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: OriginLockProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Live Transcribe API: only CloudFront, with the origin secret header, gets through',
      defaultAction: { block: {} },
      visibilityConfig: visibility('OriginLockBlocked'),
      rules: [
        {
          name: 'FromCloudFront',
          priority: 0,
          action: { allow: {} },
          statement: {
            byteMatchStatement: {
              fieldToMatch: { singleHeader: { Name: ORIGIN_SECRET_HEADER } },
              positionalConstraint: 'EXACTLY',
              searchString: props.originSecret.unsafeUnwrap(),
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
          visibilityConfig: visibility('OriginLockFromCloudFront'),
        },
      ],
    });
    const association = new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    // The stage's ARN is made of names: the association must wait for the stage itself.
    association.node.addDependency(props.stage);
  }
}

export interface EdgeFirewallProps {
  /** The route table whose routes get rules of their own; defaults to `@app/shared/routes`. */
  readonly routes?: Readonly<Record<string, RouteDef>>;
}

/**
 * CloudFront's web ACL: Allow by default; rate-based rules per client address (ROUTE_RATE_LIMITS
 * on the routes of the table, OTHER_RATE_LIMIT on every other request) answer 429 JSON past
 * their limit.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps = {}) {
    super(scope, id);
    const table = props.routes ?? routes;
    const limited = (Object.entries(ROUTE_RATE_LIMITS) as [keyof typeof ROUTE_RATE_LIMITS, number][]).filter(([name]) => table[name]);
    const live = limited.filter(([name]) => (LIVE_RATE_ROUTES as readonly string[]).includes(name)).map(([name]) => routeMatch(table[name]!));
    const block: CfnWebACL.RuleActionProperty = {
      block: { customResponse: { responseCode: 429, customResponseBodyKey: RATE_LIMITED_BODY } },
    };
    const rateRule = (name: string, priority: number, limit: number, scopeDown?: CfnWebACL.StatementProperty): CfnWebACL.RuleProperty => ({
      name,
      priority,
      action: block,
      statement: {
        rateBasedStatement: { aggregateKeyType: 'IP', evaluationWindowSec: RATE_WINDOW_SECONDS, limit, scopeDownStatement: scopeDown },
      },
      visibilityConfig: visibility(name),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Live Transcribe site: request rates per client address',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('EdgeAllowed'),
      customResponseBodies: { [RATE_LIMITED_BODY]: { contentType: 'APPLICATION_JSON', content: RATE_LIMITED_JSON } },
      rules: [
        rateRule('RateAll', 0, OTHER_RATE_LIMIT, live.length > 0 ? { notStatement: { statement: anyOf(live) } } : undefined),
        ...limited.map(([name, limit], i) => rateRule(`Rate-${name}`, i + 1, limit, routeMatch(table[name]!))),
      ],
    });
  }
}
