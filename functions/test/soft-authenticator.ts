import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator for the functions tests: what a browser's WebAuthn prompt
 * answers, made with Node's crypto (P-256, ES256; attestation "none"; user verified). The
 * journeys use Chromium's own virtual authenticator instead.
 */

type Cbor = number | string | Uint8Array | CborMap | CborRecord;
/** A map with keys other than text (a COSE key's are integers). */
class CborMap {
  constructor(readonly entries: [Cbor, Cbor][]) {}
}
interface CborRecord {
  [key: string]: Cbor;
}

/** Just the CBOR this needs: integers, byte and text strings, maps (RFC 8949). */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = value instanceof CborMap ? value.entries : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest();

const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

/** Makes a passkey for the creation options and answers as the browser would (RegistrationResponseJSON). */
export function createPasskey(options: CreationOptions, origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(32);
  const rpId = options.rp.id ?? new URL(origin).hostname;
  const coseKey = new CborMap([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  const counter = Buffer.alloc(4);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV | BE | BS | AT]), counter, Buffer.alloc(16), idLength, credentialId, cbor(coseKey)]);
  const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
  const passkey: SoftPasskey = { credentialId, privateKey, userHandle: options.user.id, rpId, counter: 0 };
  const credential = {
    id: b64url(credentialId),
    rawId: b64url(credentialId),
    type: 'public-key' as const,
    clientExtensionResults: {},
    authenticatorAttachment: 'platform' as const,
    response: {
      clientDataJSON: b64url(Buffer.from(clientData)),
      attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal' as const],
    },
  };
  return { passkey, credential };
}

/** Signs the request options' challenge with the passkey (AuthenticationResponseJSON); each use counts one more. */
export function assert(passkey: SoftPasskey, options: { challenge: string }, origin: string, { withUserHandle = true } = {}) {
  passkey.counter += 1;
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(passkey.counter);
  const authData = Buffer.concat([sha256(passkey.rpId), Buffer.from([UP | UV | BE | BS]), counter]);
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), passkey.privateKey);
  return {
    id: b64url(passkey.credentialId),
    rawId: b64url(passkey.credentialId),
    type: 'public-key' as const,
    clientExtensionResults: {},
    authenticatorAttachment: 'platform' as const,
    response: {
      clientDataJSON: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      ...(withUserHandle ? { userHandle: passkey.userHandle } : {}),
    },
  };
}

/** The site's origin in the tests (APP_URL): where the browser would run the ceremonies. */
export const ORIGIN = 'http://localhost:3000';

/** Adds a passkey to the account of a session token through the real routes: the passkey and what adding it answered. */
export async function registerPasskey(token: string, name = 'Laptop') {
  const { call } = await import('./call.ts');
  const options = await call<{ flow: string; options: CreationOptions }>('startPasskeyRegistration', { token });
  if (options.status !== 200) throw new Error(`passkey options failed: ${JSON.stringify(options.body)}`);
  const made = createPasskey(options.body.options, ORIGIN);
  const added = await call<{ passkey: { id: string }; recoveryCodes: string[] | null }>('addPasskey', {
    token,
    body: { flow: options.body.flow, name, credential: made.credential },
  });
  if (added.status !== 200) throw new Error(`adding a passkey failed: ${JSON.stringify(added.body)}`);
  return { passkey: made.passkey, id: added.body.passkey.id, recoveryCodes: added.body.recoveryCodes };
}
