import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Structured JSON logs, one line each, with the field names of Powertools for AWS Lambda's logger
 * (level, message, timestamp, service, cold_start, function_name, function_request_id,
 * correlation_id, xray_trace_id), so its queries and dashboards apply. Hand-rolled rather than
 * the Powertools package: every handler imports this, and the cold-import budget is < 100 ms.
 *
 * `correlation_id` is API Gateway's request id (also in the API access log and the
 * `apigw-requestid` response header), `function_request_id` Lambda's. On Lambda the line goes
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

const scope = new AsyncLocalStorage<RequestIds & { cold_start?: boolean }>();
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

function write(level: Level, message: string, fields: Fields = {}) {
  if (!enabled(level)) return;
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
