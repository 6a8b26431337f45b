import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the local AWS fakes (secrets-manager-fake.ts, ses-fake.ts) have in common: a node:http
 * server on this machine that the real AWS SDK clients call through their standard endpoint
 * variables (`AWS_ENDPOINT_URL_<SERVICE>`), the caller named by its access key id (each function
 * of the bundles pass signs with its own, as each Lambda function has its own role), and a log of
 * every call that tests read.
 */

/** One request a fake answered. */
export interface FakeCall {
  /** The access key id the request was signed with ('' when unsigned). */
  caller: string;
  /** The service operation (`GetSecretValue`, `SendEmail`). */
  operation: string;
  /** What the call was about: the secret's name (or the id asked for, when none matches), the recipients of a mail. */
  subject: string;
  /** `ok`, or the error type the fake answered (`ResourceNotFoundException`...). */
  outcome: string;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface AwsFake {
  /** What the SDK's endpoint variable is set to. */
  endpoint: string;
  /** Every call answered, oldest first. */
  calls: readonly FakeCall[];
  stop: () => Promise<void>;
}

/** Where a fake answers its log (`{calls}`), for test processes other than the one running it. */
export const FAKE_CALLS_PATH = '/local/calls';

/** A request's access key id, from its SigV4 `Authorization` header (`Credential=<key id>/<date>/...`). */
export function callerOf(req: IncomingMessage): string {
  return /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
}

/** The largest request body a fake reads (SES's own limit on a message is 40 MB; no local mail comes near). */
const MAX_BODY = 1024 * 1024;

/**
 * Starts a fake on a free port of 127.0.0.1. `answer` gets each request with its JSON body (undefined
 * when the body is not JSON) and records the call it made into the log by returning it.
 */
export function startAwsFake(
  service: string,
  answer: (req: IncomingMessage, body: unknown) => Promise<{ answer: FakeAnswer; call?: FakeCall }>,
): Promise<AwsFake> {
  const calls: FakeCall[] = [];
  const server = createServer(async (req, res) => {
    const reply = ({ status, headers, body }: FakeAnswer) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method === 'GET' && req.url === FAKE_CALLS_PATH) return reply({ status: 200, body: { calls } });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY) return reply({ status: 413, body: { message: `the local ${service} fake reads at most ${MAX_BODY} bytes` } });
        chunks.push(chunk);
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const { answer: a, call } = await answer(req, body);
      if (call) calls.push(call);
      reply(a);
    } catch (err) {
      console.error(`local ${service} fake:`, err);
      if (!res.headersSent) reply({ status: 500, body: { message: `the local ${service} fake failed: ${String(err)}` } });
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        endpoint: `http://127.0.0.1:${port}`,
        calls,
        stop: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
