import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { routes } from '@app/shared/routes';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { call, registerUser } from './call.ts';
import { partialRun } from './grant-check.ts';
import { grantProblems, iamActions, indexOf, mergeEvidence, type Evidence } from './grant-evidence.ts';
import { recorded } from './grant-recorder.ts';

describe('IAM actions of a DynamoDB request', () => {
  it('counts each item of a write transaction as its own action, never TransactWriteItems', () => {
    const body = {
      TransactItems: [{ Put: {} }, { Update: {} }, { Delete: {} }, { ConditionCheck: {} }, { Put: {} }],
    };
    expect(iamActions('TransactWriteItems', body)).toEqual(['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'PutItem']);
  });

  it('counts each item of a read transaction as GetItem', () => {
    expect(iamActions('TransactGetItems', { TransactItems: [{ Get: {} }, { Get: {} }] })).toEqual(['GetItem', 'GetItem']);
  });

  it('authorizes a batch as the batch action alone', () => {
    const batch = { RequestItems: { t: [{ PutRequest: {} }, { DeleteRequest: {} }] } };
    expect(iamActions('BatchWriteItem', batch)).toEqual(['BatchWriteItem']);
    expect(iamActions('BatchGetItem', { RequestItems: { t: { Keys: [{}] } } })).toEqual(['BatchGetItem']);
  });

  it("names the index a Query reads, and none for the table's own key or another operation", () => {
    expect(indexOf('Query', { TableName: 't', IndexName: 'GSI1' })).toBe('GSI1');
    expect(indexOf('Query', { TableName: 't' })).toBeUndefined();
    expect(indexOf('GetItem', { IndexName: 'GSI1' })).toBeUndefined();
  });

  it('takes any other operation as its own action', () => {
    expect(iamActions('Query', { TableName: 't' })).toEqual(['Query']);
    expect(iamActions('GetItem', undefined)).toEqual(['GetItem']);
  });

  it('refuses a transaction item it cannot name', () => {
    expect(() => iamActions('TransactWriteItems', { TransactItems: [{ Upsert: {} }] })).toThrow(/unknown TransactWriteItems item: Upsert/);
  });
});

describe('grant check over a recording', () => {
  const grants = {
    login: { table: ['GetItem', 'UpdateItem'] },
    resetPassword: { table: ['GetItem', 'DeleteItem', 'UpdateItem'] },
  };
  const matching = (): Evidence => ({
    login: { calls: 3, actions: ['GetItem', 'UpdateItem'], indexes: [] },
    resetPassword: { calls: 1, actions: ['DeleteItem', 'GetItem', 'UpdateItem'], indexes: [] },
  });

  it('finds nothing when every route used exactly its grant', () => {
    expect(grantProblems(grants, matching())).toEqual([]);
  });

  it('reports an action a handler used that its grant lacks', () => {
    const evidence = matching();
    evidence.login!.actions.push('PutItem');
    expect(grantProblems(grants, evidence)).toEqual(['login: used PutItem but is not granted it (AWS would refuse)']);
  });

  it('reports a granted action no test used', () => {
    const evidence = matching();
    evidence.resetPassword!.actions = ['GetItem', 'UpdateItem'];
    expect(grantProblems(grants, evidence)).toEqual(['resetPassword: granted DeleteItem but no test used it']);
  });

  it('reports every route when nothing was recorded, and a route called by no test', () => {
    expect(grantProblems(grants, {})).toEqual([
      'login: no test called it, so its grant [GetItem, UpdateItem] has no evidence',
      'resetPassword: no test called it, so its grant [GetItem, DeleteItem, UpdateItem] has no evidence',
    ]);
    const evidence = matching();
    evidence.login = { calls: 0, actions: [], indexes: [] };
    expect(grantProblems(grants, evidence)).toEqual(['login: no test called it, so its grant [GetItem, UpdateItem] has no evidence']);
  });

  it('reports an index a handler queried that its grant lacks, and a granted index no test queried', () => {
    const withIndex = { ...grants, login: { ...grants.login, table: ['GetItem', 'UpdateItem', 'Query'], indexes: ['GSI1'] } };
    const evidence = matching();
    evidence.login!.actions.push('Query');
    expect(grantProblems(withIndex, evidence)).toEqual(['login: granted the index GSI1 but no test queried it']);
    evidence.login!.indexes = ['GSI1'];
    expect(grantProblems(withIndex, evidence)).toEqual([]);
    expect(grantProblems(grants, { ...matching(), resetPassword: { calls: 1, actions: ['DeleteItem', 'GetItem', 'UpdateItem'], indexes: ['GSI1'] } })).toEqual([
      'resetPassword: queried the index GSI1 but is not granted it (AWS would refuse)',
    ]);
  });

  it('reports a recorded route the table does not know', () => {
    expect(grantProblems(grants, { ...matching(), logout: { calls: 1, actions: ['UpdateItem'], indexes: [] } })).toEqual([
      'logout: recorded but not in the route table',
    ]);
  });

  it('merges the files of a run: calls add up, actions unite', () => {
    const total = mergeEvidence({}, { login: { calls: 2, actions: ['GetItem'], indexes: [] } });
    mergeEvidence(total, { login: { calls: 1, actions: ['UpdateItem', 'GetItem'], indexes: [] }, resetPassword: { calls: 1, actions: ['GetItem'], indexes: [] } });
    expect(total).toEqual({
      login: { calls: 3, actions: ['GetItem', 'UpdateItem'], indexes: [] },
      resetPassword: { calls: 1, actions: ['GetItem'], indexes: [] },
    });
  });
});

describe('recording a handler on DynamoDB Local', () => {
  it('attributes the requests of a route call to that route, items of its transaction included', async () => {
    const before = recorded();
    const user = await registerUser();
    const after = recorded();
    expect(after.register!.calls).toBe((before.register?.calls ?? 0) + 1);
    // register creates the user and its email claim in one TransactWriteItems of two Puts.
    expect(after.register!.actions).toContain('PutItem');
    expect(after.register!.actions).not.toContain('TransactWriteItems');
    expect((await call('getMe', { token: user.token })).status).toBe(200);
    // Counted from before: a worker's earlier files may have called it too (the recorder lives as long as the worker).
    expect(recorded().getMe).toEqual({ calls: (after.getMe?.calls ?? 0) + 1, actions: ['GetItem'], indexes: [] });
  });

  it('attributes nothing to any route outside a route call', async () => {
    const before = recorded();
    await db().send(new GetCommand({ TableName: tableName(), Key: keys.user('nobody') }));
    expect(recorded()).toEqual(before);
  });

  it('checks the real route table', () => {
    expect(grantProblems(routes, {}).length).toBe(Object.keys(routes).length);
  });
});

describe('what a functions run proves about the grants', () => {
  it('checks a whole run; skips a filtered one locally and fails it in CI', () => {
    expect(partialRun({ notRun: 0, skipped: false, ci: true })).toBe('check');
    expect(partialRun({ notRun: 0, skipped: false, ci: false })).toBe('check');
    expect(partialRun({ notRun: 3, skipped: false, ci: false })).toBe('skip');
    expect(partialRun({ notRun: 0, skipped: true, ci: false })).toBe('skip');
    expect(partialRun({ notRun: 3, skipped: false, ci: true })).toBe('fail');
    expect(partialRun({ notRun: 0, skipped: true, ci: true })).toBe('fail');
  });
});

