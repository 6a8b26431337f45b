import { describe, expect, it } from 'vitest';
import { flattenNested } from '../lib/assembly-template.ts';

/** A nested stack read as CloudFormation resolves it: parameters in, outputs out, one template. */

const nested = {
  Parameters: { TableRef: { Type: 'String' }, AppUrl: { Type: 'String' } },
  Resources: {
    Fn: { Type: 'AWS::Lambda::Function', Properties: { Environment: { Variables: { TABLE_NAME: { Ref: 'TableRef' }, APP_URL: { Ref: 'AppUrl' } } }, Role: { 'Fn::GetAtt': ['Role', 'Arn'] } } },
    Role: { Type: 'AWS::IAM::Role', Properties: {} },
    CDKMetadata: { Type: 'AWS::CDK::Metadata', Properties: {} },
  },
  Outputs: { FnArn: { Value: { 'Fn::GetAtt': ['Fn', 'Arn'] } } },
};

const parent = {
  Resources: {
    Table: { Type: 'AWS::DynamoDB::GlobalTable', Properties: {} },
    Functions: {
      Type: 'AWS::CloudFormation::Stack',
      Properties: { TemplateURL: 'x', Parameters: { TableRef: { Ref: 'Table' }, AppUrl: 'https://example.org' } },
    },
    Method: {
      Type: 'AWS::ApiGateway::Method',
      DependsOn: ['Functions', 'Table'],
      Properties: { Integration: { Uri: { 'Fn::Join': ['', ['arn:', { 'Fn::GetAtt': ['Functions', 'Outputs.FnArn'] }]] } } },
    },
    CDKMetadata: { Type: 'AWS::CDK::Metadata', Properties: {} },
  },
};

describe('flattenNested', () => {
  it("merges a nested stack's resources, passing its parameters in and its outputs out", () => {
    const flat = flattenNested(parent, () => nested);
    expect(Object.keys(flat.Resources).sort()).toEqual(['CDKMetadata', 'Fn', 'Method', 'Role', 'Table']);
    expect(flat.Resources.Fn.Properties.Environment.Variables).toEqual({ TABLE_NAME: { Ref: 'Table' }, APP_URL: 'https://example.org' });
    expect(flat.Resources.Method.Properties.Integration.Uri).toEqual({ 'Fn::Join': ['', ['arn:', { 'Fn::GetAtt': ['Fn', 'Arn'] }]] });
    expect(flat.Resources.Method.DependsOn).toEqual(['Table']);
    // The inputs are left as they were.
    expect(parent.Resources.Functions.Type).toBe('AWS::CloudFormation::Stack');
  });

  it('refuses what CloudFormation would: an unknown output, a missing parameter, a clashing logical id', () => {
    const badOutput = { ...parent, Resources: { ...parent.Resources, Method: { Type: 'X', Properties: { A: { 'Fn::GetAtt': ['Functions', 'Outputs.Nope'] } } } } };
    expect(() => flattenNested(badOutput, () => nested)).toThrow(/no output Nope/);
    const noParam = { Resources: { Functions: { Type: 'AWS::CloudFormation::Stack', Properties: { Parameters: { TableRef: 'x' } } } } };
    expect(() => flattenNested(noParam, () => nested)).toThrow(/no value for its parameter AppUrl/);
    const clash = { Resources: { ...parent.Resources, Role: { Type: 'AWS::IAM::Role' } } };
    expect(() => flattenNested(clash, () => nested)).toThrow(/both have a resource Role/);
  });
});
