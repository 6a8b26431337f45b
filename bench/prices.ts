/**
 * AWS list prices, us-east-1, USD (docs/cost.md: the date and the pages). CloudFront's data out
 * is the first 10 TB a month to North America and Europe; Lambda is arm64; the functions have
 * 512 MB, the live view's 128 MB; DynamoDB on demand.
 */
export const PRICES = {
  cloudFrontRequest: 0.01 / 10_000,
  cloudFrontGb: 0.085,
  cloudFrontFunction: 0.1 / 1e6,
  waf: 0.6 / 1e6,
  restApi: 3.5 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  lambdaGb: 0.5,
  /** The live view's function (it holds requests: infra/lib/api.ts HOLD_MEMORY_MB). */
  viewLambdaGb: 0.125,
  readUnit: 0.125 / 1e6,
  writeUnit: 0.625 / 1e6,
};

/**
 * What serving requests costs: CloudFront (each request and its function, the bytes out), AWS WAF
 * at both web ACLs (CloudFront's, then API Gateway's for what reaches the origin), API Gateway's
 * REST API and Lambda (a request each, and the GB-seconds the functions ran).
 */
export function servingCost(c: { edgeRequests: number; edgeBytes?: number; originCalls: number; lambdaGbSeconds: number }) {
  const p = PRICES;
  return {
    cloudFront: c.edgeRequests * (p.cloudFrontRequest + p.cloudFrontFunction) + ((c.edgeBytes ?? 0) / 1e9) * p.cloudFrontGb,
    waf: (c.edgeRequests + c.originCalls) * p.waf,
    api: c.originCalls * p.restApi,
    lambda: c.originCalls * p.lambdaRequest + c.lambdaGbSeconds * p.lambdaGbSecond,
  };
}
