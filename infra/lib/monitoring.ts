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
}

/** The route whose failures mean lost payments: it gets its own alarms. */
export const WEBHOOK_ROUTE: RouteName = 'stripeWebhook';
/** API 5xx rate that raises the API alarm (percent of requests over 5 minutes) ... */
export const API_5XX_RATE_PERCENT = 1;
/** ... or this many 5xx answers in 5 minutes, whatever the rate. */
export const API_5XX_COUNT = 5;
/** Webhook calls refused (4xx, e.g. a wrong stripeWebhookSecret) per hour that raise an alarm. */
export const WEBHOOK_REJECTED_PER_HOUR = 3;
/** Failed sign-ins in 5 minutes, all accounts together, that raise an alarm (password guessing at scale, or a broken login). */
export const FAILED_LOGINS_PER_5_MINUTES = 50;
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

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${stackName} alarms` });
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

    // Stripe webhook refused (bad signature, usually a wrong or rotated stripeWebhookSecret).
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
          `${WEBHOOK_REJECTED_PER_HOUR} or more Stripe webhook calls answered 4xx in an hour: check stripeWebhookSecret against the endpoint's signing secret in Stripe.`,
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

    // Throttles of any function: metric math sums at most 10 metrics, so groups of 10 and a composite.
    const fns = [...api.functions.values()];
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
