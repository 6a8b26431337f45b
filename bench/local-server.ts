import { startLocalApp } from '../functions/src/local/app.ts';

/**
 * The local product (server and DynamoDB Local) in a process of its own, for the transcribe and
 * live benchmarks: so a benchmark can set its CPU priority, and that of the Java process it
 * starts, apart from the benchmark's own. Started with fork(): the options as the first
 * argument; it answers with a ServerReady message, answers 'routeCalls' with
 * `{ routeCalls }` (the server's count by route key) and stops on 'stop'.
 */
export interface ServerOptions {
  dataDir: string;
  port: number;
  webDist: string;
  /** The table's stream and the caption relay (LocalAppOptions.tableStream); on unless false. */
  tableStream?: boolean;
}
export interface ServerReady {
  url: string;
  dynamoEndpoint: string;
  /** The DynamoDB Local (Java) process. */
  dynamoPid: number;
  tableName: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const app = await startLocalApp({ ...options, inMemory: true });
const stop = () => void app.stop().finally(() => process.exit(0));
process.on('message', (message) => {
  if (message === 'stop') stop();
  // What each route served so far (server.routeCalls), for the live benchmark.
  if (message === 'routeCalls') process.send!({ routeCalls: Object.fromEntries(app.server.routeCalls) });
});
// The benchmark ended without saying so: nothing of the product stays behind.
process.once('disconnect', stop);
const ready: ServerReady = { url: app.url, dynamoEndpoint: app.dynamo.endpoint, dynamoPid: app.dynamo.pid, tableName: process.env.TABLE_NAME! };
process.send!(ready);
