import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { iamActions, indexOf, type Evidence } from './grant-evidence.ts';

/**
 * Records, per route, the IAM actions (and the index of every Query) of every DynamoDB request its handler sends while a test
 * calls it (call.ts wraps each invocation in `recordRoute`). Requests outside an invocation (test
 * seeding, table creation) are not attributed to any route.
 */
const currentRoute = new AsyncLocalStorage<string>();
const evidence: Evidence = {};
const instrumented = new WeakSet<object>();

/** Runs one handler invocation of `route`, attributing its DynamoDB requests to it. */
export function recordRoute<T>(route: string, fn: () => Promise<T>): Promise<T> {
  (evidence[route] ??= { calls: 0, actions: [], indexes: [] }).calls++;
  return currentRoute.run(route, fn);
}

function record(route: string, actions: string[], index: string | undefined) {
  const e = (evidence[route] ??= { calls: 0, actions: [], indexes: [] });
  e.actions = [...new Set([...e.actions, ...actions])].sort();
  if (index) e.indexes = [...new Set([...e.indexes, index])].sort();
}

/** The serialized JSON body: a string, bytes, or an object whose text is the JSON (SDK versions differ). */
function bodyText(body: unknown): string {
  // isView, not instanceof: the SDK may be loaded in another realm than this module (vitest's VM pools).
  if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body as Uint8Array);
  if (body == null) return '{}';
  return String(body);
}

/**
 * Adds the recording step to a client (once): it reads the request as serialized for the wire,
 * the operation from `X-Amz-Target` (`DynamoDB_20120810.<Operation>`) and the items from the JSON
 * body, so document-client and low-level commands are seen alike, once per send (before retries).
 */
export function instrument(client: DynamoDBDocumentClient): void {
  const stack = client.middlewareStack;
  if (instrumented.has(stack)) return;
  instrumented.add(stack);
  stack.add(
    (next) => async (args) => {
      const route = currentRoute.getStore();
      if (route) {
        const request = args.request as { headers: Record<string, string>; body?: unknown };
        const operation = request.headers['x-amz-target']?.split('.')[1];
        if (!operation) throw new Error('a DynamoDB request without X-Amz-Target: cannot record its IAM action');
        const body: unknown = JSON.parse(bodyText(request.body));
        record(route, iamActions(operation, body), indexOf(operation, body));
      }
      return next(args);
    },
    { step: 'build', name: 'grantEvidenceRecorder' },
  );
}

/** A copy of what this test file recorded so far. */
export const recorded = (): Evidence => structuredClone(evidence);

/** Writes this test file's evidence as one JSON file into `dir`. */
export function writeEvidence(dir: string): void {
  writeFileSync(join(dir, `${randomUUID()}.json`), JSON.stringify(evidence));
}
