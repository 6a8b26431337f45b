import type { TestProject } from 'vitest/node';
import { startDynamoLocal, type DynamoLocal } from '../src/local/dynamo.ts';

/** One DynamoDB Local (in memory) for the whole test run; each test file makes its own table. */
let dynamo: DynamoLocal | undefined;

export async function setup(project: TestProject) {
  dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
