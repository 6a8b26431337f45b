import { SECURITY_METRIC, type SecurityEvent } from '@app/shared/constants';
import { processScope } from './process-scope.ts';

/**
 * Structured JSON logs, one line each, with the field names of Powertools for AWS Lambda's logger
 * (level, message, timestamp, service, cold_start, function_name, function_request_id,
 * correlation_id, xray_trace_id), so its queries and dashboards apply. Hand-rolled rather than
 * the Powertools package: every handler imports this, and the cold-import budget is < 100 ms.
 *
 * `correlation_id` is API Gateway's request id (also in the API access log and the
 * `x-amzn-RequestId` response header), `function_request_id` Lambda's. On Lambda the line goes
 * straight to stdout/stderr (as Powertools does), so it is pure JSON without the runtime's
 * text prefix; elsewhere to the console. LOG_LEVEL: silent, error, warn (default: everything).
 */
type Fields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';

export interface RequestIds {
  /** API Gateway's request id. */
  correlation_id?: string;
  /** Lambda's request id (context.awsRequestId). */
  function_request_id?: string;
}

/** The running request's ids (one scope for every copy of this module in the process). */
const scope = processScope<RequestIds & { cold_start?: boolean }>('request-ids');
let coldStart = true;

const RANK: Record<Level, number> = { info: 0, warn: 1, error: 2 };
function enabled(level: Level): boolean {
  const min = (process.env.LOG_LEVEL ?? '').toLowerCase();
  if (min === 'silent') return false;
  return min in RANK ? RANK[level] >= RANK[min as Level] : true;
}

/** Runs `fn` with these request ids on every line it logs (including from awaited calls). */
export function withRequestIds<T>(ids: RequestIds, fn: () => T): T {
  const first = coldStart;
  coldStart = false;
  return scope.run(process.env.AWS_LAMBDA_FUNCTION_NAME ? { ...ids, cold_start: first } : ids, fn);
}

/** The Root part of the X-Ray trace header Lambda sets per invocation. */
function traceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  return header ? (/Root=([^;]+)/.exec(header)?.[1] ?? undefined) : undefined;
}

function write(level: Level, message: string, fields: Fields = {}, always = false) {
  if (always ? (process.env.LOG_LEVEL ?? '').toLowerCase() === 'silent' : !enabled(level)) return;
  const lambda = process.env.AWS_LAMBDA_FUNCTION_NAME;
  const line = JSON.stringify({
    level: level.toUpperCase(),
    message,
    timestamp: new Date().toISOString(),
    service: process.env.POWERTOOLS_SERVICE_NAME ?? 'live-transcribe',
    ...(lambda ? { function_name: lambda, xray_trace_id: traceId() } : {}),
    ...scope.getStore(),
    ...fields,
  });
  if (lambda) (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
  else if (level === 'error') console.error(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};

/** How loud each security event is: a refusal warns, the rest informs. */
const SECURITY_LEVEL: Record<SecurityEvent, Level> = {
  login_failed: 'warn',
  login_rate_limited: 'warn',
  bot_check_demanded: 'info',
  bot_check_failed: 'warn',
  password_reset_requested: 'info',
  password_reset_rate_limited: 'warn',
  password_reset_refused: 'warn',
  password_reset: 'info',
  password_change_failed: 'warn',
  password_change_rate_limited: 'warn',
  password_changed: 'info',
  account_delete_failed: 'warn',
  account_delete_rate_limited: 'warn',
  account_deleted: 'info',
  logout: 'info',
  logout_everywhere: 'info',
  session_exchanged: 'info',
  cross_site_refused: 'warn',
  dev_password_failed: 'warn',
  dev_password_rate_limited: 'warn',
  dev_password_accepted: 'info',
  passkey_added: 'info',
  passkey_removed: 'info',
  passkey_sign_in_failed: 'warn',
  recovery_code_used: 'info',
  recovery_code_failed: 'warn',
};

/**
 * A security event (a sign-in refused or slowed, a bot check demanded or failed, a password reset
 * asked for, refused or done, a password change refused, limited or done, an account deletion
 * refused, limited or done, a logout here or everywhere, a session moved into the cookie, a
 * request from another site refused, a
 * maintenance-password attempt): one log line
 * (`security_event` names it) that is also a metric, in
 * CloudWatch's embedded metric format (the `_aws` member: CloudWatch Logs makes the
 * SecurityEvents count of METRICS_NAMESPACE from the line itself, with no API call). Written at
 * every LOG_LEVEL but silent, so the metric never misses one. Carries no email address or
 * password: the user's id when known, the client's address.
 */
export function securityEvent(event: SecurityEvent, fields: Fields = {}): void {
  const namespace = process.env.METRICS_NAMESPACE;
  const metric = namespace
    ? {
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [{ Namespace: namespace, Dimensions: [['security_event']], Metrics: [{ Name: SECURITY_METRIC, Unit: 'Count' }] }],
        },
        [SECURITY_METRIC]: 1,
      }
    : {};
  write(SECURITY_LEVEL[event], `security event: ${event}`, { ...fields, ...metric, security_event: event }, true);
}
