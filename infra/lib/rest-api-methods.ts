/** CloudFormation JSON is untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the template is walked by keys it may or may not have
type Json = any;

type Resources = Record<string, { Type: string; Properties?: Json }>;

/**
 * Each REST API method of a template by route key (`POST /api/auth/login`), as API Gateway reads
 * it: the method's resource path (each resource's PathPart under its parent, up to the API's root)
 * and the Lambda function its proxy integration invokes (logical ids).
 */
export function restApiMethods(resources: Resources): Map<string, { methodId: string; functionId: string | undefined }> {
  const pathOf = (ref: Json): string => {
    const id = ref?.Ref as string | undefined;
    const resource = id ? resources[id] : undefined;
    if (resource?.Type !== 'AWS::ApiGateway::Resource') return ''; // the root (Fn::GetAtt RootResourceId)
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart as string}`;
  };
  const out = new Map<string, { methodId: string; functionId: string | undefined }>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::ApiGateway::Method') continue;
    const key = `${r.Properties.HttpMethod as string} ${pathOf(r.Properties.ResourceId) || '/'}`;
    const functionId = /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(JSON.stringify(r.Properties.Integration?.Uri ?? null))?.[1];
    out.set(key, { methodId: id, functionId: r.Properties.Integration?.Type === 'AWS_PROXY' ? functionId : undefined });
  }
  return out;
}

