import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Pwned Passwords range API (`GET /range/{first 5 hex characters of the SHA-1}`), so the
 * local server and the tests never call the real service: it answers, as the real one does, one
 * `SUFFIX:COUNT` line (35 upper-case hex characters of the SHA-1 after the prefix) per known hash
 * of that range, padded with zero-count lines. The passwords it knows as breached are
 * FAKE_BREACHED_PASSWORDS (strong by zxcvbn, so only the breach check refuses them).
 */
export const FAKE_BREACHED_PASSWORDS: readonly string[] = ['correct horse battery staple', 'Tr0ub4dor&3'];

export interface PwnedPasswordsFake {
  /** What PWNED_PASSWORDS_URL is set to. */
  url: string;
  /** The ranges asked for, oldest first. */
  ranges: readonly string[];
  stop: () => Promise<void>;
}

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

export async function startPwnedPasswordsFake(breached: readonly string[] = FAKE_BREACHED_PASSWORDS): Promise<PwnedPasswordsFake> {
  const known = breached.map(sha1);
  const ranges: string[] = [];
  const server = createServer((req, res) => {
    const prefix = /^\/range\/([0-9A-Fa-f]{5})$/.exec(req.method === 'GET' ? (req.url ?? '') : '')?.[1]?.toUpperCase();
    if (!prefix) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('The hash prefix was not in a valid format');
      return;
    }
    ranges.push(prefix);
    const lines = known.filter((hash) => hash.startsWith(prefix)).map((hash) => `${hash.slice(5)}:${1_000 + hash.charCodeAt(5)}`);
    // Padding, as with the real service's Add-Padding header: lines that match no password.
    for (let i = 0; i < 20; i++) lines.push(`${randomBytes(18).toString('hex').toUpperCase().slice(0, 35)}:0`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
