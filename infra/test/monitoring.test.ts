import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@app/shared/routes';
import { ACCESS_LOG_FIELDS, ACCESS_LOG_FORMAT, API_STAGE_NAME } from '../lib/api.ts';
import { LIVE_VIEW_REQUEST_CODE } from '../lib/edge-functions.ts';
import {
  API_5XX_COUNT,
  API_5XX_RATE_PERCENT,
  FAILED_LOGINS_PER_5_MINUTES,
  LIVE_CALLS_PER_VIEW_REQUEST,
  LIVE_VIEW_REQUESTS_MIN,
  LIVE_VIEW_ROUTE,
  WEBHOOK_REJECTED_PER_HOUR,
} from '../lib/monitoring.ts';
import { alarmsOf, asArray, devStack, dims, functionOfRoute, keyOf, metricsOf, ofType, prodStack, ROUTES, type Json, type Resource } from './template.ts';

/** Logs and alarms: retention, the API access log, the alarm topic and the alarms on the API, functions, webhook and throttles. */

/** The log group of a REST API stage's access log (its ARN is written out, naming the group). */
const accessLogGroupOf = (stage: Resource): string => {
  const id = /"Ref":"(?!AWS::)([^"]+)"/.exec(JSON.stringify(stage.Properties.AccessLogSetting.DestinationArn))?.[1];
  if (!id) throw new Error('the stage has no access log group');
  return id;
};

describe('Logs and alarms (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    ({ t, json, routeFunctions } = devStack());
  });

  it('keeps function logs and the API access log a month, and logs request ids in JSON', () => {
    const [, stage] = ofType(t, 'AWS::ApiGateway::Stage')[0]!;
    const logGroupId = accessLogGroupOf(stage);
    expect(json.Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 }, DeletionPolicy: 'Delete' });
    const format = stage.Properties.AccessLogSetting.Format as string;
    expect(format).toBe(ACCESS_LOG_FORMAT);
    const sample = JSON.parse(format.replace(/\$context\.[A-Za-z.]+/g, '0'));
    expect(sample).toMatchObject({ requestId: '0', routeKey: '0 0', status: 0, lambdaRequestId: '0', integrationError: '0' });
    // The route key the metric filters read is the route table's `METHOD /path`: the REST API's resource path is the route's path.
    expect(ACCESS_LOG_FIELDS.routeKey).toBe('"$context.httpMethod $context.resourcePath"');
    for (const [, g] of ofType(t, 'AWS::Logs::LogGroup')) expect(g.Properties.RetentionInDays).toBe(30);
    // A function's each, the caption relay's, the access log.
    expect(ofType(t, 'AWS::Logs::LogGroup')).toHaveLength(ROUTES.length + 2);
    for (const fnId of routeFunctions.values()) {
      expect(json.Resources[fnId].Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('live-transcribe');
    }
  });

  it('counts security events in the stack namespace and alarms on a burst of failed sign-ins', () => {
    // Each function writes its security events' metric lines (embedded metric format) to the namespace the alarms read.
    for (const fnId of routeFunctions.values()) expect(json.Resources[fnId].Properties.Environment.Variables.METRICS_NAMESPACE).toBe('Test');
    const alarm = alarmsOf(t).get('Test-failed-logins')!;
    expect(alarm).toMatchObject({
      Namespace: 'Test',
      MetricName: 'SecurityEvents',
      Dimensions: [{ Name: 'security_event', Value: 'login_failed' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: FAILED_LOGINS_PER_5_MINUTES,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('has an SNS topic for alarms, without a subscription unless alarmEmail is set', () => {
    t.resourceCountIs('AWS::SNS::Topic', 1);
    t.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it("refuses publishers without TLS on the alarm topic, and lets this account's alarms publish", () => {
    const topicId = ofType(t, 'AWS::SNS::Topic')[0]![0];
    const policies = ofType(t, 'AWS::SNS::TopicPolicy');
    expect(policies).toHaveLength(1);
    const policy = policies[0]![1].Properties;
    expect(policy.Topics).toEqual([{ Ref: topicId }]);
    expect(policy.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Principal: '*', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Resource: { Ref: topicId },
          Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
        }),
      ]),
    );
    expect(policy.PolicyDocument.Statement).toHaveLength(2);
  });

  it('alarms on the API 5xx rate (> 1 % or >= 5 in 5 minutes)', () => {
    const apiName = ofType(t, 'AWS::ApiGateway::RestApi')[0]![1].Properties.Name as string;
    expect(apiName).toBe('Test-api');
    const topicId = ofType(t, 'AWS::SNS::Topic')[0]![0];
    const alarm = alarmsOf(t).get('Test-api-5xx')!;
    expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: API_5XX_RATE_PERCENT, EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    const m = metricsOf(alarm);
    expect(m.e5).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5XXError', Stat: 'Sum', Period: 300 });
    expect(m.n).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Count', Period: 300 });
    // A REST API's metrics are by its name and stage (an HTTP API's by its id).
    // (A stage's Ref is its name.)
    const [stageId, stage] = ofType(t, 'AWS::ApiGateway::Stage')[0]!;
    expect(stage.Properties.StageName).toBe(API_STAGE_NAME);
    for (const metric of [m.e5, m.n]) expect(dims(metric)).toEqual({ ApiName: apiName, Stage: { Ref: stageId } });
    const expr = asArray<Json>(alarm.Metrics).find((q) => q.ReturnData)!.Expression as string;
    expect(expr).toContain(`>= ${API_5XX_COUNT}`);
    expect(expr).toContain('100 * FILL(e5, 0) / FILL(n, 0)');
  });

  it('alarms per function on Lambda errors or 5xx on its route (the webhook under its own name)', () => {
    const alarms = alarmsOf(t);
    const filter = ofType(t, 'AWS::Logs::MetricFilter').find(([, f]) => f.Properties.MetricTransformations[0].MetricName === 'Route5xx')![1];
    expect(filter.Properties).toMatchObject({ FilterPattern: '{ $.status >= 500 }' });
    expect(filter.Properties.MetricTransformations[0]).toMatchObject({ MetricNamespace: 'Test', MetricValue: '1', Dimensions: [{ Key: 'Route', Value: '$.routeKey' }] });
    const accessLogs = accessLogGroupOf(ofType(t, 'AWS::ApiGateway::Stage')[0]![1]);
    expect(filter.Properties.LogGroupName).toEqual({ Ref: accessLogs });
    for (const [name, route] of ROUTES) {
      const alarmName = name === 'stripeWebhook' ? 'Test-stripe-webhook-failed' : `Test-errors-${name}`;
      const alarm = alarms.get(alarmName);
      expect(alarm, alarmName).toBeDefined();
      expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1 });
      const m = metricsOf(alarm);
      expect(m.errors).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Stat: 'Sum', Period: 300 });
      expect(dims(m.errors)).toEqual({ FunctionName: { Ref: routeFunctions.get(name) } });
      expect(m.api5xx).toMatchObject({ Namespace: 'Test', MetricName: 'Route5xx', Stat: 'Sum' });
      expect(dims(m.api5xx)).toEqual({ Route: keyOf(route) });
      expect(alarm!.AlarmActions).toHaveLength(1);
    }
    expect(alarms.has('Test-errors-stripeWebhook')).toBe(false);
  });

  it('alarms when Stripe webhook calls are refused (4xx: a wrong webhook secret)', () => {
    const filter = ofType(t, 'AWS::Logs::MetricFilter').find(([, f]) => f.Properties.MetricTransformations[0].MetricName === 'StripeWebhookRejected')![1];
    expect(filter.Properties.FilterPattern).toBe(`{ ($.routeKey = "${keyOf(routes.stripeWebhook)}") && ($.status >= 400) && ($.status < 500) }`);
    const alarm = alarmsOf(t).get('Test-stripe-webhook-rejected')!;
    expect(alarm).toMatchObject({ Namespace: 'Test', MetricName: 'StripeWebhookRejected', Statistic: 'Sum', Period: 3600, Threshold: WEBHOOK_REJECTED_PER_HOUR });
    expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('alarms when the live view\'s handler runs for more than half of its viewer requests over 5 minutes of real traffic', () => {
    const topicId = ofType(t, 'AWS::SNS::Topic')[0]![0];
    const alarm = alarmsOf(t).get('Test-live-view-cache-misses')!;
    expect(alarm).toMatchObject({
      Threshold: LIVE_CALLS_PER_VIEW_REQUEST,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
      OKActions: [{ Ref: topicId }],
    });
    expect(LIVE_CALLS_PER_VIEW_REQUEST).toBe(0.5);
    expect(alarm.AlarmDescription).toContain('us-east-1');
    const m = metricsOf(alarm);
    expect(m.calls).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Invocations', Stat: 'Sum', Period: 300 });
    expect(dims(m.calls)).toEqual({ FunctionName: { Ref: routeFunctions.get(LIVE_VIEW_ROUTE) } });
    // Viewer requests: the invocations of the CloudFront Function on the live view's behaviour (and of no other).
    const [liveFnId, liveFn] = ofType(t, 'AWS::CloudFront::Function').find(([, f]) => f.Properties.FunctionCode === LIVE_VIEW_REQUEST_CODE)!;
    expect(m.views).toMatchObject({ Namespace: 'AWS/CloudFront', MetricName: 'FunctionInvocations', Stat: 'Sum', Period: 300 });
    expect(dims(m.views)).toEqual({ FunctionName: liveFn.Properties.Name, Region: 'Global' });
    expect(JSON.stringify(liveFn.Properties.Name)).not.toContain('undefined');
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const withLiveFn = config.CacheBehaviors.filter((b: Json) => b.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0] === liveFnId);
    expect(withLiveFn.map((b: Json) => b.PathPattern)).toEqual(['/api/live/*']);
    // Calls over requests, only once the requests reach the minimum volume.
    const expr = asArray<Json>(alarm.Metrics).find((q) => q.ReturnData)!.Expression as string;
    expect(expr).toBe(`IF(FILL(views, 0) >= ${LIVE_VIEW_REQUESTS_MIN}, FILL(calls, 0) / FILL(views, 0), 0)`);
    expect(LIVE_VIEW_REQUESTS_MIN).toBe(12_000);
  });

  it('alarms when any function is throttled (groups of at most 10 functions under one composite alarm)', () => {
    const alarms = alarmsOf(t);
    const groups = [...alarms.values()].filter((a) => a.AlarmName.startsWith('Test-lambda-throttles-'));
    const relay = ofType(t, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CaptionRelay'))![0];
    expect(groups.length).toBe(Math.ceil((ROUTES.length + 1) / 10));
    const throttled: Json[] = [];
    for (const g of groups) {
      const m = Object.values(metricsOf(g));
      expect(m.length).toBeLessThanOrEqual(10);
      for (const metric of m) expect(metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Stat: 'Sum' });
      throttled.push(...m.map((metric) => dims(metric).FunctionName));
      expect(g).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(g.AlarmActions).toBeUndefined(); // the composite notifies
    }
    // Both sides in one order (localeCompare and the default sort differ on case: ...TextRoute / ...sRoute).
    expect(throttled.sort((a, b) => a.Ref.localeCompare(b.Ref))).toEqual([...routeFunctions.values(), relay].sort((a, b) => a.localeCompare(b)).map((id) => ({ Ref: id })));
    const composites = ofType(t, 'AWS::CloudWatch::CompositeAlarm');
    expect(composites).toHaveLength(1);
    const c = composites[0]![1].Properties;
    expect(c.AlarmName).toBe('Test-lambda-throttles');
    expect(c.AlarmActions).toEqual([{ Ref: ofType(t, 'AWS::SNS::Topic')[0]![0] }]);
    const rule = JSON.stringify(c.AlarmRule);
    for (const g of groups) expect(rule).toContain(g.id);
  });
});

describe('Logs and alarms (prod, full route table, all context)', () => {
  let t: Template;
  let json: Json;

  beforeAll(() => {
    ({ t, json } = prodStack());
  });

  it('keeps production logs when the stack is deleted', () => {
    // Each route function's log group and the API's access log (CDK's own helper functions for the site deployment bring their own).
    const groups = new Set([
      ...ROUTES.map(([, r]) => json.Resources[functionOfRoute(t, keyOf(r))].Properties.LoggingConfig.LogGroup.Ref as string),
      ...ofType(t, 'AWS::Logs::LogGroup').filter(([id]) => id.startsWith('ApiAccessLogs')).map(([id]) => id),
    ]);
    expect(groups.size).toBe(ROUTES.length + 1);
    for (const id of groups) expect(json.Resources[id]).toMatchObject({ Type: 'AWS::Logs::LogGroup', DeletionPolicy: 'Retain', Properties: { RetentionInDays: 30 } });
  });

  it('subscribes alarmEmail to the alarm topic', () => {
    t.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.org',
      TopicArn: { Ref: ofType(t, 'AWS::SNS::Topic')[0]![0] },
    });
  });

  it('names alarms after the stack, one per function plus API, webhook and throttles', () => {
    const names = [...alarmsOf(t).keys()];
    expect(names).toEqual(expect.arrayContaining(['Test-api-5xx', 'Test-stripe-webhook-failed', 'Test-stripe-webhook-rejected', 'Test-errors-login']));
    expect(names.filter((n) => n.startsWith('Test-errors-'))).toHaveLength(ROUTES.length - 1);
  });
});
