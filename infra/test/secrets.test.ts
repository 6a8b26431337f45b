import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { routes, routeSecrets } from '@app/shared/routes';
import { awsSecretName, SECRET_NAMES, SECRETS } from '@app/shared/secrets';
import { GENERATED_SECRETS, secretConstructId } from '../lib/secrets.ts';
import { actionsOf, allStatements, asArray, devStack, ofType, ROUTES, statementsOfFunction, type Json } from './template.ts';

/** Secrets and mail: which function may read which secret, values kept out of the template, the origin secret sent by CloudFront, and mail sending. */

describe('Secrets, origin lock and mail (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    ({ t, json, routeFunctions } = devStack());
  });

  /** Logical id of each secret of the stack, by SECRETS name. */
  const secretIds = () => new Map(SECRET_NAMES.map((name) => [name, ofType(t, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith(secretConstructId(name)))![0]]));

  it('has one secret per SECRETS entry, named live-transcribe/<stage>/<name>', () => {
    const secrets = ofType(t, 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(SECRET_NAMES.length);
    expect(secrets.map(([, r]) => r.Properties.Name).sort()).toEqual(SECRET_NAMES.map((n) => awsSecretName('dev', n)).sort());
    expect(secretIds().get('origin')).toMatch(/^OriginSecret[0-9A-F]{8}$/);
  });

  it("gives each function read access to exactly its route's secrets (routeSecrets), and their ARNs, and nothing else", () => {
    const ids = secretIds();
    for (const [name, route] of ROUTES) {
      const fnId = routeFunctions.get(name)!;
      const declared = routeSecrets(name, route);
      const statements = statementsOfFunction(t, fnId);
      expect(actionsOf(statements, 'secretsmanager:'), name).toEqual(['secretsmanager:GetSecretValue']);
      const readable = statements
        .filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('secretsmanager:')))
        .flatMap((s: Json) => asArray(s.Resource));
      const ref = (r: Json) => String(r.Ref);
      expect(readable.map(ref).sort(), name).toEqual(declared.map((secret) => ids.get(secret)!).sort());
      const vars = json.Resources[fnId].Properties.Environment.Variables as Record<string, unknown>;
      for (const secret of SECRET_NAMES) {
        expect(vars[SECRETS[secret].idVariable], `${name}: ${secret}`).toEqual(declared.includes(secret) ? { Ref: ids.get(secret) } : undefined);
      }
    }
    // The Stripe secrets only reach billing, the bot check only the forms that ask for it.
    expect(routeSecrets('stripeWebhook', routes.stripeWebhook)).toEqual(['origin', 'stripeWebhookSigning']);
  });

  it('lets only mail routes send mail', () => {
    const identityId = ofType(t, 'AWS::SES::EmailIdentity')[0]![0];
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'ses:'), name).toEqual(route.mail ? ['ses:SendEmail', 'ses:SendRawEmail'] : []);
      if (route.mail) {
        const ses = statements.find((s: Json) => asArray<string>(s.Action).includes('ses:SendEmail'));
        expect(JSON.stringify(ses.Resource)).toContain(identityId);
      }
    }
  });

  it('keeps secret values out of the template: the token key and the origin secret generated, the providers\' secrets created empty', () => {
    const ids = secretIds();
    for (const name of SECRET_NAMES) {
      const p = json.Resources[ids.get(name)!].Properties;
      expect(p.SecretString, name).toBeUndefined();
      if (GENERATED_SECRETS.has(name)) {
        expect(p.GenerateSecretString.GenerateStringKey, name).toBeUndefined(); // a plain string, not JSON
        expect(p.GenerateSecretString.PasswordLength, name).toBeGreaterThanOrEqual(43); // >= 256 bits
      } else {
        expect(p.GenerateSecretString, name).toBeUndefined();
      }
    }
    expect([...GENERATED_SECRETS].sort()).toEqual(['origin', 'tokenKey']);
    const text = JSON.stringify(json);
    // (boolean checks, so a failure does not print the whole template)
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
    const originId = secretIds().get('origin');
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
