import { startLocalApp } from '../functions/src/local/app.ts';
import { startLocalServer, type LocalServer } from '../functions/src/local/server.ts';
import { resetEnv } from '../functions/src/lib/env.ts';

/**
 * The local product (server and DynamoDB Local) in a process of its own, for the transcribe and
 * live benchmarks: so a benchmark can set its CPU priority, and that of the Java process it
 * starts, apart from the benchmark's own. Started with fork(): the options as the first
 * argument; it answers with a ServerReady message, answers 'routeCalls' with
 * `{ routeCalls }` (the server's count by route key) and stops on 'stop'.
 * With `store`, only a server, on the store of another such process (its DynamoDB Local and
 * table): another set of function instances of the same product, as Lambda runs each request in
 * an instance of its own.
 */
export interface ServerOptions {
  dataDir: string;
  port: number;
  webDist: string;
  /** The table's stream and the caption relay (LocalAppOptions.tableStream); on unless false. */
  tableStream?: boolean;
  /** DynamoDB Local on the JVM options of a sustained load (LocalAppOptions.sustainedStore). */
  sustainedStore?: boolean;
  /** The store of another bench server (its ServerReady): serve from it, starting no store of this process's own. */
  store?: Pick<ServerReady, 'dynamoEndpoint' | 'dynamoPid' | 'tableName'>;
}
export interface ServerReady {
  url: string;
  dynamoEndpoint: string;
  /** The DynamoDB Local (Java) process. */
  dynamoPid: number;
  tableName: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
let server: LocalServer;
let stopApp: () => Promise<void>;
let ready: ServerReady;
if (options.store) {
  const { dynamoEndpoint, dynamoPid, tableName } = options.store;
  Object.assign(process.env, { DYNAMODB_ENDPOINT: dynamoEndpoint, TABLE_NAME: tableName });
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  resetEnv();
  server = await startLocalServer({ port: options.port, webDist: options.webDist });
  stopApp = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  ready = { url: `http://localhost:${options.port}`, dynamoEndpoint, dynamoPid, tableName };
} else {
  const app = await startLocalApp({ ...options, inMemory: true });
  server = app.server;
  stopApp = app.stop;
  ready = { url: app.url, dynamoEndpoint: app.dynamo.endpoint, dynamoPid: app.dynamo.pid, tableName: process.env.TABLE_NAME! };
}
const stop = () => void stopApp().finally(() => process.exit(0));
process.on('message', (message) => {
  if (message === 'stop') stop();
  // What each route served so far (server.routeCalls), for the live benchmark.
  if (message === 'routeCalls') process.send!({ routeCalls: Object.fromEntries(server.routeCalls) });
});
// The benchmark ended without saying so: nothing of the product stays behind.
process.once('disconnect', stop);
process.send!(ready);
