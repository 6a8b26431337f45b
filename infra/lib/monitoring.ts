import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  ComparisonOperator,
  CompositeAlarm,
  MathExpression,
  Metric,
  TreatMissingData,
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction as ICloudFrontFunction } from 'aws-cdk-lib/aws-cloudfront';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { SECURITY_METRIC, type SecurityEvent } from '@app/shared/constants';
import type { RouteName } from '@app/shared/routes';
import type { Api } from './api.ts';
import { routeKey } from './throttling.ts';

export interface MonitoringProps {
  readonly api: Api;
  /** Optional address subscribed to the alarm topic (context `alarmEmail`); it must confirm by mail. */
  readonly alarmEmail?: string;
  /** The CloudFront Function on the live view's viewer requests (web.ts): its invocations count them. */
  readonly liveViewRequest?: ICloudFrontFunction;
  /** The caption relay (relay.ts), fed by the table's stream. */
  readonly relay?: IFunction;
}

/**
 * The caption relay's stream iterator age (its oldest record not yet handled, the maximum over a
 * minute) that raises an alarm: a caption is a minute late. A run retries a failing destination for
 * up to 40 s, so only something stuck or failing again and again ages records this much.
 */
export const RELAY_ITERATOR_AGE_MS = 60_000;

/** The route whose failures mean lost payments: it gets its own alarms. */
export const WEBHOOK_ROUTE: RouteName = 'stripeWebhook';
/** API 5xx rate that raises the API alarm (percent of requests over 5 minutes) ... */
export const API_5XX_RATE_PERCENT = 1;
/** ... or this many 5xx answers in 5 minutes, whatever the rate. */
export const API_5XX_COUNT = 5;
/** Webhook calls refused (4xx, e.g. a wrong webhook signing secret) per hour that raise an alarm. */
export const WEBHOOK_REJECTED_PER_HOUR = 3;
/** Failed sign-ins in 5 minutes, all accounts together, that raise an alarm (password guessing at scale, or a broken login). */
export const FAILED_LOGINS_PER_5_MINUTES = 50;
/** The cached live caption view: its handler calls per viewer request are watched. */
export const LIVE_VIEW_ROUTE: RouteName = 'viewLiveShare';
/**
 * Handler calls per live viewer request over 5 minutes above which the cache is not doing its
 * work. CloudFront answers a cache key (path and `after`) once per cache second (1 s) at each
 * location that asks for it, and a viewer asks every 0.5 s, always from the `next` it was given,
 * which changes about once a second while the speaker talks (every new `next` is a new key). So
 * a location serving n viewers of a share makes 1 to 2 handler calls a second for 2n requests:
 * about 0.75/n, 0.15 with five viewers there, under 0.1 for a room. Over 0.5 means more than a
 * call for every other request: viewers alone or in twos at each location, or, what this is for,
 * requests that miss the cache on purpose or by a fault (each a new offset, a cache policy that
 * stopped keying right), which bring it to 1.
 */
export const LIVE_CALLS_PER_VIEW_REQUEST = 0.5;
/**
 * ... once there are at least this many live viewer requests in the 5 minutes (40 a second:
 * 20 viewers following the whole time), so a small audience, a viewer or two per location, does
 * not alarm: 20 viewers asking through 13 locations (CloudFront's count of regional edge caches)
 * at 1.5 calls a second each make 19.5 calls for 40 requests, still under 0.5.
 */
export const LIVE_VIEW_REQUESTS_MIN = 12_000;
/** CloudWatch: an alarm's metric math may reference at most 10 metrics. */
const MAX_ALARM_METRICS = 10;

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Alarms, all notifying one SNS topic (alarm and back to OK):
 * - `<stack>-api-5xx`: API 5xx rate over 1 % (or 5 or more 5xx) in 5 minutes;
 * - `<stack>-errors-<route>`, one per function: Lambda errors (crashes, timeouts) or 5xx answers
 *   on its route (the handler wrapper turns unknown errors into logged 500s, which Lambda's own
 *   Errors metric never counts, so the route's 5xx come from the API access log);
 * - `<stack>-stripe-webhook-failed` (instead of the webhook's errors alarm) and
 *   `<stack>-stripe-webhook-rejected` (4xx answers to Stripe: usually a wrong webhook secret);
 * - `<stack>-live-view-cache-misses`: the live view's handler called for more than half of its
 *   viewer requests (its CloudFront Function's invocations) over 5 minutes of real traffic;
 * - `<stack>-lambda-throttles`: any function throttled (a composite over groups of 10 functions).
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  /** Custom metrics (from the API access log) live in this namespace: the stack name. */
  readonly namespace: string;
  readonly alarms: IAlarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api } = props;
    const stackName = Stack.of(this).stackName;
    this.namespace = stackName;

    // Publishers must use TLS. The topic policy this adds replaces SNS's default one (which lets
    // the account's services publish), so CloudWatch is allowed again: this account's alarms only.
    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${stackName} alarms`, enforceSSL: true });
    const { account, partition, region } = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisAccount',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        },
      }),
    );
    if (props.alarmEmail) {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(props.alarmEmail)) throw new Error(`alarmEmail "${props.alarmEmail}" is not an email address`);
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    }
    const notify = (alarm: Alarm | CompositeAlarm) => {
      alarm.addAlarmAction(new SnsAction(this.topic));
      alarm.addOkAction(new SnsAction(this.topic));
      this.alarms.push(alarm);
      return alarm;
    };
    const alarm = (cid: string, name: string, description: string, metric: IMetric, threshold: number, op: ComparisonOperator) =>
      new Alarm(this, cid, {
        alarmName: `${stackName}-${name}`,
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: op,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });

    // 5xx answers per route key, counted from the access log (no paid detailed API metrics needed).
    new MetricFilter(this, 'Route5xxFilter', {
      logGroup: api.accessLogs,
      filterPattern: FilterPattern.numberValue('$.status', '>=', 500),
      metricNamespace: this.namespace,
      metricName: 'Route5xx',
      metricValue: '1',
      dimensions: { Route: '$.routeKey' },
    });
    const route5xx = (key: string, period: Duration) =>
      new Metric({ namespace: this.namespace, metricName: 'Route5xx', dimensionsMap: { Route: key }, statistic: 'Sum', period });

    // API: 5xx rate, or a handful of 5xx whatever the traffic.
    notify(
      alarm(
        'Api5xx',
        'api-5xx',
        `API 5xx answers over ${API_5XX_RATE_PERCENT}% of requests, or ${API_5XX_COUNT} or more, in 5 minutes. Logs: the API access log and the functions' log groups.`,
        new MathExpression({
          expression: `IF(FILL(e5, 0) >= ${API_5XX_COUNT}, 100, IF(FILL(n, 0) > 0, 100 * FILL(e5, 0) / FILL(n, 0), 0))`,
          usingMetrics: {
            e5: api.stage.metricServerError({ period: FIVE_MINUTES }),
            n: api.stage.metricCount({ period: FIVE_MINUTES }),
          },
          label: '5xx % of requests (100 when 5 or more)',
          period: FIVE_MINUTES,
        }),
        API_5XX_RATE_PERCENT,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
      ),
    );

    // Each function: Lambda errors or 5xx on its route.
    for (const [name, fn] of api.functions) {
      const route = api.routes[name]!;
      const webhook = name === WEBHOOK_ROUTE;
      notify(
        alarm(
          `${name}Errors`,
          webhook ? 'stripe-webhook-failed' : `errors-${name}`,
          webhook
            ? `Stripe webhook (${routeKey(route)}) failed: a Lambda error or a 5xx answer. Stripe retries for 3 days; plan changes wait until it succeeds.`
            : `${routeKey(route)}: a Lambda error (crash, timeout) or a 5xx answer in 5 minutes.`,
          new MathExpression({
            expression: 'MAX([FILL(errors, 0), FILL(api5xx, 0)])',
            usingMetrics: {
              errors: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
              api5xx: route5xx(routeKey(route), FIVE_MINUTES),
            },
            label: 'Lambda errors or route 5xx',
            period: FIVE_MINUTES,
          }),
          1,
          ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        ),
      );
    }

    // Stripe webhook refused (bad signature, usually a wrong or rotated webhook signing secret).
    const webhookRoute = api.routes[WEBHOOK_ROUTE];
    if (webhookRoute) {
      new MetricFilter(this, 'WebhookRejectedFilter', {
        logGroup: api.accessLogs,
        filterPattern: FilterPattern.all(
          FilterPattern.stringValue('$.routeKey', '=', routeKey(webhookRoute)),
          FilterPattern.numberValue('$.status', '>=', 400),
          FilterPattern.numberValue('$.status', '<', 500),
        ),
        metricNamespace: this.namespace,
        metricName: 'StripeWebhookRejected',
        metricValue: '1',
      });
      notify(
        alarm(
          'WebhookRejected',
          'stripe-webhook-rejected',
          `${WEBHOOK_REJECTED_PER_HOUR} or more Stripe webhook calls answered 4xx in an hour: check the secret live-transcribe/<stage>/stripe-webhook-signing against the endpoint's signing secret in Stripe.`,
          new Metric({ namespace: this.namespace, metricName: 'StripeWebhookRejected', statistic: 'Sum', period: Duration.hours(1) }),
          WEBHOOK_REJECTED_PER_HOUR,
          ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        ),
      );
    }

    // Failed sign-ins, counted by the login function's security-event log lines (embedded metric format).
    notify(
      alarm(
        'FailedLogins',
        'failed-logins',
        `${FAILED_LOGINS_PER_5_MINUTES} or more failed sign-ins in 5 minutes: password guessing, or a broken login page. Logs: the login function's "security event: login_failed" lines (source_ip).`,
        new Metric({
          namespace: this.namespace,
          metricName: SECURITY_METRIC,
          dimensionsMap: { security_event: 'login_failed' satisfies SecurityEvent },
          statistic: 'Sum',
          period: FIVE_MINUTES,
        }),
        FAILED_LOGINS_PER_5_MINUTES,
        ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      ),
    );

    // The live view's handler calls per viewer request: the 1-second cache at work.
    const liveViewFn = api.functions.get(LIVE_VIEW_ROUTE);
    if (props.liveViewRequest && liveViewFn) {
      notify(
        alarm(
          'LiveViewCacheMisses',
          'live-view-cache-misses',
          `The live caption view's handler ran for more than ${LIVE_CALLS_PER_VIEW_REQUEST} of its viewer requests in 5 minutes (with ${LIVE_VIEW_REQUESTS_MIN} requests or more): CloudFront's 1-second cache is bypassed (a client asking a new offset each time) or no longer keyed by path and after. Counts CloudFront Function invocations, metrics CloudFront keeps in us-east-1 only: relies on the stack being deployed in us-east-1.`,
          new MathExpression({
            expression: `IF(FILL(views, 0) >= ${LIVE_VIEW_REQUESTS_MIN}, FILL(calls, 0) / FILL(views, 0), 0)`,
            usingMetrics: {
              calls: liveViewFn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
              views: new Metric({
                namespace: 'AWS/CloudFront',
                metricName: 'FunctionInvocations',
                dimensionsMap: { FunctionName: props.liveViewRequest.functionName, Region: 'Global' },
                statistic: 'Sum',
                period: FIVE_MINUTES,
              }),
            },
            label: 'live view handler calls per viewer request',
            period: FIVE_MINUTES,
          }),
          LIVE_CALLS_PER_VIEW_REQUEST,
          ComparisonOperator.GREATER_THAN_THRESHOLD,
        ),
      );
    }

    if (props.relay) {
      notify(
        alarm(
          'RelayErrors',
          'caption-relay-errors',
          'Caption relay: a Lambda error (crash, timeout) in 5 minutes; its batch is retried from the failed record, captions to YouTube or Zoom wait.',
          props.relay.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          1,
          ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        ),
      );
      notify(
        alarm(
          'RelayIteratorAge',
          'caption-relay-late',
          `Caption relay: records waiting over ${RELAY_ITERATOR_AGE_MS / 1000} s (IteratorAge): captions reach YouTube or Zoom late (a destination failing again and again, or the function failing).`,
          props.relay.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
          RELAY_ITERATOR_AGE_MS,
          ComparisonOperator.GREATER_THAN_THRESHOLD,
        ),
      );
    }

    // Throttles of any function: metric math sums at most 10 metrics, so groups of 10 and a composite.
    const fns = [...api.functions.values(), ...(props.relay ? [props.relay] : [])];
    const groups: Alarm[] = [];
    for (let i = 0; i < fns.length; i += MAX_ALARM_METRICS) {
      const group = fns.slice(i, i + MAX_ALARM_METRICS);
      const usingMetrics = Object.fromEntries(group.map((fn, j) => [`t${j}`, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })]));
      const n = groups.length + 1;
      groups.push(
        alarm(
          `Throttles${n}`,
          `lambda-throttles-${n}`,
          `Throttled invocations of functions ${i + 1}-${i + group.length} (part of ${stackName}-lambda-throttles, which notifies).`,
          new MathExpression({
            expression: `SUM([${Object.keys(usingMetrics).map((k) => `FILL(${k}, 0)`).join(', ')}])`,
            usingMetrics,
            label: 'throttled invocations',
            period: FIVE_MINUTES,
          }),
          1,
          ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        ),
      );
    }
    if (groups.length > 0) {
      notify(
        new CompositeAlarm(this, 'Throttles', {
          compositeAlarmName: `${stackName}-lambda-throttles`,
          alarmDescription: 'A function was throttled (account or reserved concurrency exhausted): requests failed with 5xx/429.',
          alarmRule: AlarmRule.anyOf(...groups),
        }),
      );
    }
  }
}
