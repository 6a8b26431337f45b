import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DYNAMO_JVM_OPTIONS, DYNAMO_SUSTAINED_JVM_OPTIONS, startDynamoLocal, type DynamoLocal } from '../src/local/dynamo.ts';

/** The JVM options the java launcher of a running process was given (its JDK_JAVA_OPTIONS). */
function jvmOptionsOf(pid: number): string | undefined {
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environ.find((entry) => entry.startsWith('JDK_JAVA_OPTIONS='))?.slice('JDK_JAVA_OPTIONS='.length);
}

describe('DynamoDB Local', () => {
  let dynamo: DynamoLocal | undefined;
  const before = process.env.JDK_JAVA_OPTIONS;
  afterEach(async () => {
    await dynamo?.stop();
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  });

  it('runs on the lean JVM options, after which the options a developer set still win, and leaves the environment as it was', async () => {
    process.env.JDK_JAVA_OPTIONS = '-Xmx1g';
    dynamo = await startDynamoLocal();
    expect(jvmOptionsOf(dynamo.pid)).toBe([...DYNAMO_JVM_OPTIONS, '-Xmx1g'].join(' '));
    expect(process.env.JDK_JAVA_OPTIONS).toBe('-Xmx1g');
    const res = await fetch(dynamo.endpoint, { method: 'POST' });
    expect(res.status).toBe(400); // DynamoDB's answer to a request without an action: it serves
  });

  it('under a sustained load runs the optimizing compiler too', async () => {
    delete process.env.JDK_JAVA_OPTIONS;
    dynamo = await startDynamoLocal({ sustained: true });
    const options = jvmOptionsOf(dynamo.pid);
    expect(options).toBe(DYNAMO_SUSTAINED_JVM_OPTIONS.join(' '));
    expect(options).not.toContain('TieredStopAtLevel');
    expect((await fetch(dynamo.endpoint, { method: 'POST' })).status).toBe(400);
  });
});
