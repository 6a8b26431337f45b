import { CfnOutput, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { RouteDef } from '@app/shared/routes';
import { awsSecretName, SECRET_NAMES, type SecretName } from '@app/shared/secrets';
import { Api } from './api.ts';
import { Data } from './data.ts';
import { EdgeFirewall, OriginLock } from './edge.ts';
import { Mail } from './mail.ts';
import { Relay } from './relay.ts';
import { LIVE_VIEW_ROUTE, Monitoring } from './monitoring.ts';
import { webDist, webSourceIndexHtml } from './paths.ts';
import { createSecrets, secretConstructId } from './secrets.ts';
import { Web } from './web.ts';

export type Stage = 'dev' | 'prod';

/**
 * The one region the stack deploys to: CloudFront's web ACL must be created in us-east-1, and
 * CloudFront's (and its web ACL's) metrics live there only, where an alarm can read them. The
 * account stays the CLI's, so `cdk synth` needs no credentials.
 */
export const STACK_REGION = 'us-east-1';
export const STAGES: readonly Stage[] = ['dev', 'prod'];

export interface LiveTranscribeStackProps extends StackProps {
  readonly stage: Stage;
  /** SES sending domain; mail goes from no-reply@<mailDomain>. */
  readonly mailDomain: string;
  /** Where contact-form messages go; defaults to support@<mailDomain>. */
  readonly supportEmail?: string;
  /** Stripe price ids of the monthly Pro plan per currency (context stripePriceUsd / stripePriceBrl). */
  readonly stripePrices?: { USD: string; BRL: string };
  /** Optional custom domain for the site; requires certificateArn (ACM certificate in us-east-1). */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /** Built SPA folder; defaults to web/dist. Deployed only if it holds an index.html (after `npm run build`). */
  readonly siteDir?: string;
  /** Defaults to the shared route table. */
  readonly routes?: Readonly<Record<string, RouteDef>>;
  /** Analytics / session-recording origins the CSP allows (context `analyticsOrigins`, comma-separated). */
  readonly analyticsOrigins?: readonly string[];
  /** Origin of the embedded survey form, a CSP frame source (context `surveyOrigin`). */
  readonly surveyOrigin?: string;
  /** Subscribed to the alarm topic (context `alarmEmail`). */
  readonly alarmEmail?: string;
  /** Use this existing table instead of creating one, e.g. after a point-in-time restore (context `tableName`). */
  readonly tableName?: string;
  /** That table's stream ARN (context `tableStreamArn`), for the caption relay; without it an existing table gets no relay. */
  readonly tableStreamArn?: string;
  /**
   * The origin secret's version CloudFront and the API's web ACL use (context `originSecretVersion`);
   * unset: the current one. CloudFormation resolves a secret only for a resource it updates, so
   * after a rotation a new version id in the template is what makes a deploy update both.
   */
  readonly originSecretVersion?: string;
  /** Route name -> concurrent executions reserved for its function (context `webhookReservedConcurrency`, `loginReservedConcurrency`). */
  readonly reservedConcurrency?: Readonly<Record<string, number>>;
}

/** The whole product on AWS: table, secrets, mail identity, REST API + functions, S3 + CloudFront, AWS WAF, alarms. */
export class LiveTranscribeStack extends Stack {
  readonly data: Data;
  readonly api: Api;
  readonly web: Web;
  /** One secret per entry of SECRETS (shared/src/secrets.ts); each function reads only its route's. */
  readonly secrets: Record<SecretName, Secret>;
  readonly monitoring: Monitoring;
  /** The caption relay fed by the table's stream (absent on an existing table without `tableStreamArn`). */
  readonly relay?: Relay;

  constructor(scope: Construct, id: string, props: LiveTranscribeStackProps) {
    if (props.env?.region !== undefined && props.env.region !== STACK_REGION) {
      throw new Error(`The stack deploys to ${STACK_REGION} only (CloudFront's web ACL and metrics live there); got region ${props.env.region}.`);
    }
    super(scope, id, { ...props, env: { account: props.env?.account, region: STACK_REGION } });
    const production = props.stage === 'prod';
    // CloudFront's own *.cloudfront.net certificate also offers TLS 1.0 and 1.1; only a custom
    // domain's certificate lets the distribution require TLS 1.2 (web.ts).
    if (production && !(props.domainName && props.certificateArn)) {
      throw new Error('A prod stack needs domainName and certificateArn (ACM, us-east-1): without them the site would also offer TLS below 1.2.');
    }

    this.data = new Data(this, 'Data', { production, existingTableName: props.tableName, existingTableStreamArn: props.tableStreamArn });

    this.secrets = createSecrets(this, props.stage, production);

    const mail = new Mail(this, 'Mail', { domain: props.mailDomain });

    this.api = new Api(this, 'Api', {
      table: this.data.table,
      secrets: this.secrets,
      mailIdentity: mail.identity,
      mailFrom: mail.from,
      supportEmail: props.supportEmail ?? `support@${props.mailDomain}`,
      stripePrices: props.stripePrices ?? { USD: '', BRL: '' },
      production,
      routes: props.routes,
      reservedConcurrency: props.reservedConcurrency,
    });

    if (this.data.streamArn) {
      this.relay = new Relay(this, 'CaptionRelay', {
        table: this.data.table,
        streamArn: this.data.streamArn,
        bundledWith: Object.values(this.api.routes).map((r) => r.handler),
        production,
      });
    }

    // CloudFront sends the origin secret and the API's web ACL admits it: one reference for both.
    const originSecret = props.originSecretVersion
      ? SecretValue.secretsManager(this.secrets.origin.secretArn, { versionId: props.originSecretVersion })
      : this.secrets.origin.secretValue;
    new OriginLock(this, 'OriginLock', { stage: this.api.stage, originSecret });
    const edge = new EdgeFirewall(this, 'EdgeFirewall', { routes: this.api.routes });

    this.web = new Web(this, 'Web', {
      apiDomainName: this.api.domainName,
      apiOriginPath: this.api.originPath,
      webAclArn: edge.webAcl.attrArn,
      routes: this.api.routes,
      originSecret,
      domainName: props.domainName,
      certificate: props.certificateArn
        ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
        : undefined,
      siteDir: props.siteDir ?? webDist,
      fallbackIndexHtml: webSourceIndexHtml,
      analyticsOrigins: props.analyticsOrigins,
      surveyOrigin: props.surveyOrigin,
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      alarmEmail: props.alarmEmail,
      liveViewRequest: this.web.cachedViewerRequests.get(LIVE_VIEW_ROUTE),
      relay: this.relay?.fn,
    });

    // The distribution depends on the API (its origin) and the functions on the distribution (APP_URL);
    // methods and the deployment depend on the functions, the RestApi resource itself on nothing: no cycle.
    this.api.setAppUrl(this.web.url);

    new CfnOutput(this, 'SiteUrl', { value: this.web.url, description: 'The site (SPA and API, one origin)' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'REST API stage endpoint (its web ACL blocks anything but CloudFront)' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    for (const name of SECRET_NAMES) {
      new CfnOutput(this, `${secretConstructId(name)}Name`, { value: awsSecretName(props.stage, name), description: `Secrets Manager secret: ${name}` });
    }
    new CfnOutput(this, 'BucketName', { value: this.web.bucket.bucketName });
    new CfnOutput(this, 'AccessLogBucketName', { value: this.web.logBucket.bucketName, description: 'CloudFront (cloudfront/) and site bucket (s3/) access logs' });
    new CfnOutput(this, 'DistributionId', { value: this.web.distribution.distributionId });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'SNS topic of every alarm' });
    new CfnOutput(this, 'ApiAccessLogGroup', { value: this.api.accessLogs.logGroupName, description: 'API access log (JSON line per request)' });
  }
}
