import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal, type DynamoLocal } from '../src/local/dynamo.ts';
import { startPwnedPasswordsFake, type PwnedPasswordsFake } from '../src/local/pwned-passwords-fake.ts';

/**
 * One DynamoDB Local (in memory) for the whole test run; each test file makes its own table.
 * Each test file also writes the DynamoDB actions its route calls used into one folder, checked
 * against the route table's IAM grants once every file ran (grant-check.ts).
 */
let dynamo: DynamoLocal | undefined;
let pwned: PwnedPasswordsFake | undefined;
let project: TestProject | undefined;
let evidenceDir: string | undefined;
/** The run's temporary folder (each test file's mail outbox, setup.ts; other files tests make), removed after it. */
let tempRoot: string | undefined;

export async function setup(p: TestProject) {
  project = p;
  evidenceDir = mkdtempSync(join(tmpdir(), 'grant-evidence-'));
  p.provide('grantEvidenceDir', evidenceDir);
  tempRoot = mkdtempSync(join(tmpdir(), 'functions-tests-'));
  p.provide('tempRoot', tempRoot);
  [dynamo, pwned] = await Promise.all([startDynamoLocal(), startPwnedPasswordsFake()]);
  p.provide('dynamoEndpoint', dynamo.endpoint);
  // The breach check of every handler asks this local fake, never the real service.
  p.provide('pwnedPasswordsUrl', pwned.url);
}

export async function teardown() {
  await Promise.all([dynamo?.stop(), pwned?.stop()]);
  if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  // Loaded only now: loading the route table and its schemas first delayed DynamoDB Local's start (and the first test file) by some 0.2 s.
  if (project && evidenceDir) await (await import('./grant-check.ts')).checkRecordedGrants(project, evidenceDir);
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** The local Pwned Passwords range API (pwned-passwords-fake.ts). */
    pwnedPasswordsUrl: string;
    /** Where each test file writes its grant evidence (grant-recorder.ts). */
    grantEvidenceDir: string;
    /** The run's temporary folder (global-setup.ts): what a test makes in it is removed after the run. */
    tempRoot: string;
  }
}
