import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  RELAY_BATCH_SIZE,
  RELAY_FILTER_PATTERN,
  RELAY_HANDLER,
  RELAY_MAX_RECORD_AGE_SECONDS,
  RELAY_PARALLELIZATION,
  RELAY_RETRY_ATTEMPTS,
  RELAY_TABLE_ACTIONS,
  RELAY_TIMEOUT_SECONDS,
} from '@app/shared/relay';
import { SECRETS } from '@app/shared/secrets';
import { RELAY_ITERATOR_AGE_MS } from '../lib/monitoring.ts';
import { actionsOf, alarmsOf, asArray, devStack, metricsOf, noSite, ofType, statementsOfFunction, synth, type Json } from './template.ts';

/** The caption relay: the table's stream, a filtered event source mapping, a least-privilege function, its alarms. */
describe('caption relay', () => {
  let t: Template;
  let fnId: string;
  let tableId: string;

  beforeAll(() => {
    ({ t } = devStack());
    fnId = ofType(t, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CaptionRelay'))![0];
    tableId = ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![0];
  });

  it('the table has a stream of keys only', () => {
    expect(ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![1].Properties.StreamSpecification).toEqual({ StreamViewType: 'KEYS_ONLY' });
  });

  it('the stream feeds the relay through a mapping that lets only new automatic-transcription chunks through, in order per user', () => {
    const mappings = ofType(t, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const m = mappings[0]![1].Properties;
    expect(m.FunctionName).toEqual({ Ref: fnId });
    expect(m.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
    expect(m).toMatchObject({
      StartingPosition: 'LATEST',
      BatchSize: RELAY_BATCH_SIZE,
      MaximumBatchingWindowInSeconds: 0,
      ParallelizationFactor: RELAY_PARALLELIZATION,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: RELAY_RETRY_ATTEMPTS,
      MaximumRecordAgeInSeconds: RELAY_MAX_RECORD_AGE_SECONDS,
    });
    expect(m.FilterCriteria.Filters.map((f: Json) => JSON.parse(f.Pattern))).toEqual([RELAY_FILTER_PATTERN]);
  });

  it('runs the relay handler with the project defaults, a longer timeout, and no secret', () => {
    const p = t.toJSON().Resources[fnId].Properties;
    expect(p).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler', Timeout: RELAY_TIMEOUT_SECONDS });
    expect(p.Description).toContain('Caption relay');
    expect(t.toJSON().Resources[fnId].Metadata?.['aws:asset:path'] ?? RELAY_HANDLER).toBeTruthy();
    const vars = Object.keys(p.Environment.Variables);
    for (const s of Object.values(SECRETS)) expect(vars).not.toContain(s.idVariable);
  });

  it('may do on the table exactly what it does, read the stream, and nothing else', () => {
    const statements = statementsOfFunction(t, fnId);
    const onTable = statements.filter((s: Json) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }));
    expect(actionsOf(onTable, 'dynamodb:')).toEqual(RELAY_TABLE_ACTIONS.map((a) => `dynamodb:${a}`).sort());
    const onStream = statements.filter((s: Json) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }));
    expect(actionsOf(onStream, 'dynamodb:')).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
    const rest = statements.filter((s: Json) => !onTable.includes(s) && !onStream.includes(s));
    const restActions = rest.flatMap((s: Json) => asArray<string>(s.Action));
    expect(restActions.filter((a: string) => !a.startsWith('logs:'))).toEqual([]);
    expect(restActions.some((a: string) => a.startsWith('secretsmanager:') || a.startsWith('ses:'))).toBe(false);
  });

  it('no deployed function may reach the local caption receiver', () => {
    for (const [, f] of ofType(t, 'AWS::Lambda::Function')) expect(Object.keys(f.Properties.Environment?.Variables ?? {})).not.toContain('LOCAL_CAPTION_RECEIVER');
  });

  it('alarms on its errors and on records waiting over a minute, and counts in the throttles alarm', () => {
    const alarms = alarmsOf(t);
    const errors = [...alarms.values()].find((a) => String(a.AlarmName).endsWith('-caption-relay-errors'))!;
    expect(errors).toMatchObject({ MetricName: 'Errors', Namespace: 'AWS/Lambda', Threshold: 1 });
    expect(errors.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: fnId } }]);
    const late = [...alarms.values()].find((a) => String(a.AlarmName).endsWith('-caption-relay-late'))!;
    expect(late).toMatchObject({ MetricName: 'IteratorAge', Statistic: 'Maximum', Threshold: RELAY_ITERATOR_AGE_MS, ComparisonOperator: 'GreaterThanThreshold' });
    const throttles = [...alarms.values()].filter((a) => String(a.AlarmName).includes('lambda-throttles-'));
    const counted = throttles.flatMap((a) => Object.values(metricsOf(a))).map((m: Json) => JSON.stringify(m));
    expect(counted.some((m) => m.includes(fnId))).toBe(true);
  });

  it('an existing table without its stream ARN gets no relay; with it, the relay reads that stream', () => {
    const base = { stage: 'dev' as const, siteDir: noSite(), tableName: 'live-transcribe-restored' };
    expect(ofType(synth(base), 'AWS::Lambda::EventSourceMapping')).toHaveLength(0);
    const arn = 'arn:aws:dynamodb:us-east-1:123456789012:table/live-transcribe-restored/stream/2026-01-01T00:00:00.000';
    const mapping = ofType(synth({ ...base, tableStreamArn: arn }), 'AWS::Lambda::EventSourceMapping');
    expect(mapping[0]![1].Properties.EventSourceArn).toBe(arn);
  });
});
