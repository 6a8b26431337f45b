import { relative, resolve } from 'node:path';
import { bundlesFromEnv, startLocalApp } from './app.ts';
import { checkoutSimulator } from './checkout-simulator.ts';
import { javaAvailable } from './dynamo.ts';

/** `npm start`: the whole product on one port, offline. */
async function main() {
  if (!javaAvailable()) {
    console.error('Java 17 or newer is required to run DynamoDB Local: install it (Debian: apt-get install -y default-jre-headless) and run npm start again.');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 3000);
  const root = resolve(import.meta.dirname, '../../..');
  const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');
  const app = await startLocalApp({
    dataDir,
    port,
    // This machine only, unless HOST says otherwise (0.0.0.0 to try it from a phone on the same network).
    host: process.env.HOST || undefined,
    webDist: resolve(root, 'web/dist'),
    localPages: [checkoutSimulator],
    bundlesFrom: bundlesFromEnv(root),
  });
  const handlers = app.bundlesFrom ? `handlers: the bundles in ${relative(root, app.bundlesFrom)}/, ` : '';
  console.log(`Live Transcribe is running at ${app.url}  (${handlers}data: ${relative(root, dataDir) || '.'}/, mail outbox: ${relative(root, app.outboxDir)}/; Ctrl+C to stop)`);
  const stop = async () => {
    await app.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`Could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
