/**
 * IAM grants checked against evidence: the DynamoDB requests each route's handler really sent
 * during the integration tests (recorded by grant-recorder.ts), compared with the `table` actions
 * the route table grants it. DynamoDB Local never checks IAM, so this is what proves the grants.
 */

/** What the tests saw one route do: how often it was called, the IAM actions its requests needed and the indexes its Queries read. */
export interface RouteEvidence {
  calls: number;
  actions: string[];
  indexes: string[];
}

/** One test file's recording, route name -> evidence. */
export type Evidence = Record<string, RouteEvidence>;

type Json = Record<string, unknown>;

const TRANSACT_WRITE_ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/**
 * The IAM actions one DynamoDB request needs, from its operation name (the `X-Amz-Target`
 * suffix) and JSON body.
 *
 * - TransactWriteItems and TransactGetItems are not IAM actions: IAM checks each item against its
 *   own action (Put -> PutItem, Update -> UpdateItem, Delete -> DeleteItem,
 *   ConditionCheck -> ConditionCheckItem, Get -> GetItem), so a transaction needs exactly the
 *   actions of its items.
 * - BatchWriteItem and BatchGetItem are authorized as one action each (`dynamodb:BatchWriteItem`,
 *   `dynamodb:BatchGetItem`, per AWS's Service Authorization Reference for DynamoDB); the puts,
 *   deletes and gets inside a batch are not checked against PutItem, DeleteItem or GetItem.
 * - Every other operation is its own action.
 */
export function iamActions(operation: string, body: unknown): string[] {
  const input = (body ?? {}) as Json;
  if (operation === 'TransactWriteItems') {
    return ((input.TransactItems ?? []) as Json[]).map((item) => {
      const kind = Object.keys(item).find((k) => k in TRANSACT_WRITE_ITEM_ACTIONS);
      if (!kind) throw new Error(`unknown TransactWriteItems item: ${Object.keys(item).join(', ')}`);
      return TRANSACT_WRITE_ITEM_ACTIONS[kind]!;
    });
  }
  if (operation === 'TransactGetItems') return ((input.TransactItems ?? []) as Json[]).map(() => 'GetItem');
  return [operation];
}

/** The global index a request reads (a Query's `IndexName`), if any. */
export function indexOf(operation: string, body: unknown): string | undefined {
  const name = ((body ?? {}) as Json).IndexName;
  return operation === 'Query' && typeof name === 'string' ? name : undefined;
}

/** Adds one file's evidence into a running total. */
export function mergeEvidence(total: Evidence, part: Evidence): Evidence {
  for (const [route, e] of Object.entries(part)) {
    const t = (total[route] ??= { calls: 0, actions: [], indexes: [] });
    t.calls += e.calls;
    t.actions = [...new Set([...t.actions, ...e.actions])].sort();
    t.indexes = [...new Set([...t.indexes, ...e.indexes])].sort();
  }
  return total;
}

/**
 * Every difference between the grants and the evidence, one line each (empty when they match):
 * a route with no recorded call (no evidence either way), a recorded route the table does not
 * know, an action or index a handler used that its grant lacks (it would be refused on AWS), and a
 * granted action or index no test used (more than the route needs, or a path no test exercises).
 */
export function grantProblems(
  grants: Readonly<Record<string, { readonly table: readonly string[]; readonly indexes?: readonly string[] }>>,
  evidence: Evidence,
): string[] {
  const problems: string[] = [];
  for (const [route, { table, indexes = [] }] of Object.entries(grants)) {
    const seen = evidence[route];
    if (!seen || seen.calls === 0) {
      problems.push(`${route}: no test called it, so its grant [${table.join(', ')}] has no evidence`);
      continue;
    }
    const missing = seen.actions.filter((a) => !table.includes(a));
    const unused = [...new Set(table)].filter((a) => !seen.actions.includes(a));
    if (missing.length > 0) problems.push(`${route}: used ${missing.join(', ')} but is not granted it (AWS would refuse)`);
    if (unused.length > 0) problems.push(`${route}: granted ${unused.join(', ')} but no test used it`);
    const missingIndexes = seen.indexes.filter((i) => !indexes.includes(i));
    const unusedIndexes = [...new Set(indexes)].filter((i) => !seen.indexes.includes(i));
    if (missingIndexes.length > 0) problems.push(`${route}: queried the index ${missingIndexes.join(', ')} but is not granted it (AWS would refuse)`);
    if (unusedIndexes.length > 0) problems.push(`${route}: granted the index ${unusedIndexes.join(', ')} but no test queried it`);
  }
  for (const route of Object.keys(evidence)) {
    if (!(route in grants)) problems.push(`${route}: recorded but not in the route table`);
  }
  return problems;
}
