import {
  AwsSolutionsChecks,
  type INagLogger,
  type NagLoggerErrorData,
  type NagLoggerNonComplianceData,
  type NagLoggerSuppressedData,
  type NagLoggerSuppressedErrorData,
} from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { prodProps, synthApp } from './template.ts';

/**
 * AWS's own rule pack (cdk-nag's AwsSolutions checks) on the production stack. Every finding,
 * error or warning, is fixed or suppressed beside its construct with the reason
 * (`NagSuppressions` in infra/lib); the rules that may be suppressed at all are listed here.
 */

/** Every outcome cdk-nag reports, by construct path. */
class Findings implements INagLogger {
  readonly open: string[] = [];
  readonly suppressed: { rule: string; finding: string; path: string; reason: string }[] = [];
  onCompliance(): void {}
  onNotApplicable(): void {}
  onNonCompliance(d: NagLoggerNonComplianceData): void {
    this.open.push(`${d.findingId || d.ruleId} (${d.ruleLevel}) on ${d.resource.node.path}: ${d.ruleInfo}`);
  }
  onError(d: NagLoggerErrorData): void {
    this.open.push(`${d.ruleId} could not check ${d.resource.node.path}: ${d.errorMessage}`);
  }
  onSuppressed(d: NagLoggerSuppressedData): void {
    this.suppressed.push({ rule: d.ruleId, finding: d.findingId || d.ruleId, path: d.resource.node.path, reason: d.suppressionReason });
  }
  onSuppressedError(d: NagLoggerSuppressedErrorData): void {
    this.suppressed.push({ rule: d.ruleId, finding: `${d.ruleId} (error)`, path: d.resource.node.path, reason: d.errorSuppressionReason });
  }
}

/** The rules suppressed somewhere in the production stack, each with its reason beside the construct. */
const SUPPRESSIBLE = [
  'AwsSolutions-APIG2', // no API Gateway request validation: the wrapper validates with the route table's zod schemas (lib/api.ts)
  'AwsSolutions-APIG4', // no API Gateway authorizer: the handler wrapper authorizes, behind the origin lock (lib/api.ts)
  'AwsSolutions-APIG6', // no execution logs: they need the account-wide API Gateway role; the access log has each request (lib/api.ts)
  'AwsSolutions-COG4', // no Cognito authorizer: accounts and sessions are the product's own (lib/api.ts)
  'AwsSolutions-CFR1', // no geo restriction: the site serves every country (lib/web.ts)
  'AwsSolutions-IAM4', // CDK's BucketDeployment handler (lib/web.ts)
  'AwsSolutions-IAM5', // CDK's BucketDeployment handler (lib/web.ts)
  'AwsSolutions-L1', // CDK's BucketDeployment handler (lib/web.ts)
  'AwsSolutions-SMG4', // no automatic rotation: by hand, README (lib/secrets.ts)
];

describe('AwsSolutions checks (cdk-nag) on the production stack', () => {
  const findings = new Findings();
  let synthError: unknown;

  beforeAll(() => {
    try {
      synthApp(prodProps(), { aspects: [new AwsSolutionsChecks({ reports: false, additionalLoggers: [findings] })] });
    } catch (err) {
      // An unsuppressed error finding also fails the synthesis: the list below says which.
      synthError = err;
    }
  });

  it('leaves no finding neither fixed nor suppressed', () => {
    expect(findings.open).toEqual([]);
    expect(synthError).toBeUndefined();
  });

  it('suppresses only the listed rules, each finding with its reason', () => {
    expect([...new Set(findings.suppressed.map((s) => s.rule))].sort()).toEqual([...SUPPRESSIBLE].sort());
    for (const s of findings.suppressed) expect(s.reason.length, `${s.finding} on ${s.path}`).toBeGreaterThanOrEqual(40);
  });

  it('needs no suppression for the web ACLs: the API stage and the distribution each have one', () => {
    expect(findings.suppressed.filter((s) => ['AwsSolutions-APIG3', 'AwsSolutions-CFR2'].includes(s.rule))).toEqual([]);
  });

  it("suppresses nothing on the route functions' roles and policies: their grants are fixed, not excused", () => {
    const onFunctions = findings.suppressed.filter((s) => /\/Api\/\w+Route\//.test(s.path));
    expect(onFunctions).toEqual([]);
  });
});
