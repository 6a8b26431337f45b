import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@app/shared/routes';
import { actionsOf, asArray, devStack, functionOfRoute, genericProdStack, keyOf, noSite, ofType, prodStack, ROUTES, statementsOfFunction, synth, type Json } from './template.ts';

/** The DynamoDB table: its keys and index, and its protection in production; or an existing table (after a restore). */

describe('DynamoDB table (dev)', () => {
  let t: Template;

  beforeAll(() => {
    ({ t } = devStack());
  });

  it('defines the table: PK/SK, GSI1, TTL expiresAt, PITR, on demand; dev may be deleted', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: 'GSI1',
          KeySchema: [
            { AttributeName: 'GSI1PK', KeyType: 'HASH' },
            { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    const [, table] = ofType(t, 'AWS::DynamoDB::GlobalTable')[0]!;
    expect(table.Properties.Replicas[0].DeletionProtectionEnabled ?? false).toBe(false);
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
  });
});

describe('DynamoDB table (prod, generic routes)', () => {
  let t: Template;

  beforeAll(() => {
    ({ t } = genericProdStack());
  });

  it('protects the production table', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
  });
});

describe('DynamoDB table (prod, full route table, all context)', () => {
  let t: Template;

  beforeAll(() => {
    ({ t } = prodStack());
  });

  it('protects the production table: point-in-time recovery, deletion protection, retained', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    t.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });
});

describe('LiveTranscribe stack on an existing table (after a point-in-time restore)', () => {
  it('uses the named table for every function and grant, and creates none', () => {
    const t = synth({ stage: 'prod', siteDir: noSite(), tableName: 'live-transcribe-restored', domainName: 'live.example.org', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-1111-1111-1111-111111111111' });
    t.resourceCountIs('AWS::DynamoDB::GlobalTable', 0);
    t.resourceCountIs('AWS::DynamoDB::Table', 0);
    const fns = ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(fns).toHaveLength(ROUTES.length);
    for (const [, f] of fns) expect(f.Properties.Environment.Variables.TABLE_NAME).toBe('live-transcribe-restored');
    const login = statementsOfFunction(t, functionOfRoute(t, keyOf(routes.login)));
    const dynamo = login.find((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(JSON.stringify(dynamo.Resource)).toContain(':table/live-transcribe-restored');
    expect(actionsOf(login, 'dynamodb:')).toEqual([...routes.login.table].map((a) => `dynamodb:${a}`).sort());
    t.hasOutput('TableName', { Value: 'live-transcribe-restored' });
  });

  it('refuses a malformed table name', () => {
    expect(() => synth({ tableName: 'bad name;' })).toThrow(/not a DynamoDB table name/);
  });
});
