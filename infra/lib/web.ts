import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, type SecretValue } from 'aws-cdk-lib';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { apiPathPatterns, type RouteDef } from '@app/shared/routes';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { cachedApiBehaviors, cachedViewerRequestCode, SPA_REWRITE_CODE, VIEWER_ADDRESS_CODE } from './edge-functions.ts';
import { buildCsp, FRAME_OPTIONS, HSTS_MAX_AGE_SECONDS, inlineScriptHashes, PERMISSIONS_POLICY, REFERRER_POLICY } from './security-headers.ts';

export interface WebProps {
  /** Host name of the REST API (origin for the API paths). */
  readonly apiDomainName: string;
  /** Put before every API request's path at the origin: the REST API's stage (`/v1`). */
  readonly apiOriginPath: string;
  /** ARN of CloudFront's AWS WAF web ACL (lib/edge.ts: rate limits per client address). */
  readonly webAclArn: string;
  /** The API's route table (its paths give the forwarded patterns, its `cache` entries cached behaviours); defaults to `@app/shared/routes`. */
  readonly routes?: Readonly<Record<string, RouteDef>>;
  /** Sent to the API in ORIGIN_SECRET_HEADER on every request (a secret reference, resolved at deploy). */
  readonly originSecret: SecretValue;
  /** Optional custom domain; needs `certificate` (ACM, us-east-1). */
  readonly domainName?: string;
  readonly certificate?: ICertificate;
  /** The built SPA folder; deployed only if it holds an index.html when the app is synthesized. */
  readonly siteDir: string;
  /**
   * The page whose inline scripts the CSP allows by hash when `siteDir` has no index.html
   * (the source web/index.html: Vite copies inline scripts unchanged).
   */
  readonly fallbackIndexHtml?: string;
  /** Analytics / session-recording origins allowed by the CSP (context `analyticsOrigins`). */
  readonly analyticsOrigins?: readonly string[];
  /** Origin of the embedded survey (context `surveyOrigin`), allowed as a frame source. */
  readonly surveyOrigin?: string;
}

/**
 * The deploy-time function of CDK's BucketDeployment (a custom resource that copies the built site
 * into the bucket and invalidates CloudFront): aws-cdk-lib makes its role and picks its runtime,
 * so these findings of AWS's rules are suppressed on it, with the reason, and on nothing else.
 */
function suppressBucketDeploymentFindings(deployment: BucketDeployment): void {
  const handler: IConstruct | undefined = deployment.handlerRole.node.scope;
  if (!handler) throw new Error('BucketDeployment: its handler function was not found');
  const cdkOwned = "is CDK's BucketDeployment handler, which runs only while the stack deploys (copying the built site into the bucket, then invalidating CloudFront): aws-cdk-lib builds it and follows its own upgrades";
  NagSuppressions.addResourceSuppressions(
    handler,
    [
      { id: 'AwsSolutions-L1', reason: `Its runtime ${cdkOwned}.` },
      {
        id: 'AwsSolutions-IAM4',
        reason: `The AWS managed basic execution role (writing its logs) ${cdkOwned}.`,
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason: `Its wildcards (s3 read on the CDK asset bucket, s3 read, write and delete on the site bucket's objects, CloudFront invalidation, which takes no narrower resource) ${cdkOwned}.`,
        appliesTo: [{ regex: '/^Action::s3:[A-Za-z]+\\*$/' }, { regex: '/^Resource::.+\\/\\*$/' }, 'Resource::*'],
      },
    ],
    true,
  );
}

/** How long the access logs of CloudFront and of the site bucket are kept. */
export const ACCESS_LOG_DAYS = 90;

/** Private S3 bucket + CloudFront (origin access control), same origin for the SPA and the API. */
export class Web extends Construct {
  readonly bucket: Bucket;
  /** CloudFront's standard logs (`cloudfront/`) and the site bucket's server access logs (`s3/`). */
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<custom domain or CloudFront domain>`. */
  readonly url: string;
  readonly deployed: boolean;
  /** Security headers (CSP, HSTS, ...) on every response: the SPA's and the API's. */
  readonly headersPolicy: ResponseHeadersPolicy;
  /** The Content-Security-Policy it sends. */
  readonly csp: string;
  /** The viewer-request function of each cached API route's behaviour (edge-functions.ts), by route name. */
  readonly cachedViewerRequests = new Map<string, CloudFrontFunction>();

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);

    this.logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront's standard logs are delivered with an object ACL: the bucket must accept ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_DAYS) }],
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
    });

    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Client-side routes (no file extension) -> /index.html',
    });

    // CSP hashes of index.html's inline scripts, from the page being deployed (or its source).
    const builtIndex = path.join(props.siteDir, 'index.html');
    const indexHtml = [builtIndex, props.fallbackIndexHtml].find((f): f is string => !!f && fs.existsSync(f));
    this.csp = buildCsp({
      analyticsOrigins: props.analyticsOrigins,
      surveyOrigin: props.surveyOrigin,
      scriptHashes: indexHtml ? inlineScriptHashes(fs.readFileSync(indexHtml, 'utf8')) : [],
    });
    this.headersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Live Transcribe: CSP, HSTS, nosniff, referrer policy, frame denial, permissions policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: this.csp, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, preload: true, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: REFERRER_POLICY as HeadersReferrerPolicy, override: true },
        frameOptions: { frameOption: FRAME_OPTIONS as HeadersFrameOption, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true }],
      },
    });

    const viewerAddress = new CloudFrontFunction(this, 'ViewerAddress', {
      code: FunctionCode.fromInline(VIEWER_ADDRESS_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'API paths: the visitor IP in x-viewer-address, for per-client rate limits',
    });

    const apiBehavior: BehaviorOptions = {
      // CloudFront's origin headers replace any the viewer sent under the same name.
      origin: new HttpOrigin(props.apiDomainName, {
        originPath: props.apiOriginPath,
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        customHeaders: { [ORIGIN_SECRET_HEADER]: props.originSecret.unsafeUnwrap() },
      }),
      functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.headersPolicy,
    };

    const live = cachedApiBehaviors(props.routes);
    for (const { name } of live.cached) {
      const code = cachedViewerRequestCode(name);
      this.cachedViewerRequests.set(
        name,
        code === VIEWER_ADDRESS_CODE
          ? viewerAddress
          : new CloudFrontFunction(this, `ViewerRequest-${name}`, {
              code: FunctionCode.fromInline(code),
              runtime: FunctionRuntime.JS_2_0,
              comment: `${name}: only canonical query values reach the origin (else 400 at the edge); the visitor IP in x-viewer-address`,
            }),
      );
    }
    const cachedBehaviors = live.cached.map(({ name, pattern, cache }): [string, BehaviorOptions] => [
      pattern,
      {
        ...apiBehavior,
        functionAssociations: [{ function: this.cachedViewerRequests.get(name)!, eventType: FunctionEventType.VIEWER_REQUEST }],
        cachePolicy: new CachePolicy(this, `Cache-${name}`, {
          comment: `Live Transcribe: ${name}, ${cache.seconds} s, keyed by path and ${cache.query.join(', ')}`,
          // 0: an answer the origin marks no-store (a held request that found nothing new) is not kept.
          minTtl: Duration.seconds(0),
          defaultTtl: Duration.seconds(cache.seconds),
          maxTtl: Duration.seconds(cache.seconds),
          queryStringBehavior: CacheQueryStringBehavior.allowList(...cache.query),
          headerBehavior: CacheHeaderBehavior.none(),
          cookieBehavior: CacheCookieBehavior.none(),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
        }),
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
        compress: true,
      },
    ]);

    if (props.domainName && !props.certificate) throw new Error('A custom domainName needs a certificate (ACM, us-east-1).');
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Live Transcribe: SPA and API on one origin',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      minimumProtocolVersion: props.certificate ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      domainNames: props.domainName ? [props.domainName] : undefined,
      certificate: props.certificate,
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headersPolicy,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // In this order: CloudFront takes the first pattern that matches.
      additionalBehaviors: Object.fromEntries([
        ...live.uncached.map((p) => [p, apiBehavior] as const),
        ...cachedBehaviors,
        // The paths of the route table (apiPathPatterns); everything else is the SPA.
        ...apiPathPatterns(props.routes).map((p) => [p, apiBehavior] as const),
      ]),
    });

    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason: 'No geo restriction: the site is for anyone, anywhere (English, Portuguese and Spanish speakers); no country is excluded.',
      },
    ]);

    this.url = `https://${props.domainName ?? this.distribution.distributionDomainName}`;

    this.deployed = fs.existsSync(builtIndex);
    if (this.deployed) {
      // Hashed build output: cache for a year. Kept across deploys (no prune) so open tabs still load.
      const assetsDir = path.join(props.siteDir, 'assets');
      const assets = fs.existsSync(assetsDir)
        ? new BucketDeployment(this, 'DeployAssets', {
            // Source maps stay with the build (to read a stack trace): the site never serves them.
            sources: [Source.asset(assetsDir, { exclude: ['*.map'] })],
            destinationBucket: this.bucket,
            destinationKeyPrefix: 'assets/',
            cacheControl: [CacheControl.fromString('public,max-age=31536000,immutable')],
            prune: false,
          })
        : undefined;
      // Everything else (index.html, icons, ...): revalidate each time; then invalidate CloudFront.
      const site = new BucketDeployment(this, 'DeploySite', {
        sources: [Source.asset(props.siteDir, { exclude: ['assets', 'assets/**'] })],
        destinationBucket: this.bucket,
        cacheControl: [CacheControl.noCache()],
        prune: false,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
      });
      if (assets) site.node.addDependency(assets);
      for (const deployment of [assets, site]) if (deployment) suppressBucketDeploymentFindings(deployment);
    }
  }
}
