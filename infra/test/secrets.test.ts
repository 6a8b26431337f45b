import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { actionsOf, allStatements, asArray, devStack, ofType, ROUTES, statementsOfFunction, type Json } from './template.ts';

/** Secrets and mail: who may read the app and origin secrets, values kept out of the template, the origin secret sent by CloudFront, and mail sending. */

describe('Secrets, origin lock and mail (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    ({ t, json, routeFunctions } = devStack());
  });

  it('lets every function read the app secret and the origin secret (and no other), and only mail routes send mail', () => {
    const [secretId, originId] = ofType(t, 'AWS::SecretsManager::Secret').map(([id]) => id);
    const identityId = ofType(t, 'AWS::SES::EmailIdentity')[0]![0];
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'secretsmanager:'), name).toEqual(['secretsmanager:GetSecretValue']);
      const secretStatements = statements.filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('secretsmanager:')));
      expect(secretStatements.flatMap((s: Json) => asArray(s.Resource))).toEqual([{ Ref: secretId }, { Ref: originId }]);
      expect(actionsOf(statements, 'ses:'), name).toEqual(route.mail ? ['ses:SendEmail', 'ses:SendRawEmail'] : []);
      if (route.mail) {
        const ses = statements.find((s: Json) => asArray<string>(s.Action).includes('ses:SendEmail'));
        expect(JSON.stringify(ses.Resource)).toContain(identityId);
      }
    }
  });

  it('keeps secret values out of the template', () => {
    const secrets = ofType(t, 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(2);
    const [app, origin] = secrets.map(([, r]) => r.Properties);
    expect(app.GenerateSecretString).toMatchObject({ GenerateStringKey: 'jwtSecret' });
    expect(origin.GenerateSecretString.GenerateStringKey).toBeUndefined();
    for (const p of [app, origin]) {
      expect(p.SecretString).toBeUndefined();
      expect(p.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(43); // >= 256 bits
    }
    const text = JSON.stringify(json);
    // (boolean checks, so a failure does not print the whole template)
    const valued = /(jwtSecret|recaptchaSecret|stripeSecretKey|stripeWebhookSecret)\\*"\s*:\s*\\*"[^"\\]/.exec(text);
    expect(valued?.[0], 'a secret key with a value').toBeUndefined();
    expect(/sk_(live|test)_|whsec_|rk_(live|test)_/.test(text), 'a Stripe key in the template').toBe(false);
    expect(text.includes('"SecretString"'), 'a SecretString property').toBe(false);
  });

  it('lets nothing in the template read any other secret', () => {
    const ids = ofType(t, 'AWS::SecretsManager::Secret').map(([id]) => ({ Ref: id }));
    for (const s of allStatements(t).filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('secretsmanager:')))) {
      for (const r of asArray(s.Resource)) expect(ids).toContainEqual(r);
    }
  });

  it('has CloudFront send the API the origin secret by reference (resolved at deploy), and the functions require it', () => {
    const originId = ofType(t, 'AWS::SecretsManager::Secret')[1]![0];
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: originId }, ':SecretString:::}}']] } },
    ]);
    // Only the API origin gets it (the bucket has no use for it).
    for (const o of config.Origins.filter((o: Json) => !o.CustomOriginConfig)) expect(o.OriginCustomHeaders, o.Id).toBeUndefined();
    for (const fnId of routeFunctions.values()) {
      expect(json.Resources[fnId].Properties.Environment.Variables.ORIGIN_SECRET_ID).toEqual({ Ref: originId });
    }
  });
});
