// A software WebAuthn authenticator for tests: a P-256 key pair per credential (node:crypto),
// "none" attestation, real ES256 signatures over authenticatorData || SHA-256(clientDataJSON), a
// signature counter, and flags to play a misbehaving key (no user verification, a counter that
// goes back, another origin or RP ID). Nothing of the verifier is mocked.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** Minimal CBOR (RFC 8949) encoder: unsigned and negative integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicJwk: { x: string; y: string };
  counter: number;
}

export interface Tamper {
  /** Leave the UV flag off (a key that did not ask for a PIN or fingerprint). */
  noUserVerification?: boolean;
  /** Sign for this origin instead of the one given. */
  origin?: string;
  /** Hash this RP ID into authenticatorData instead of the options'. */
  rpId?: string;
  /** Report this counter instead of counting up. */
  counter?: number;
  /** Answer this challenge instead of the options'. */
  challenge?: string;
  /** Register this existing credential again (another authenticator's, as a copy of it would). */
  reuse?: SoftCredential;
}

function newCredential(): SoftCredential {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  return { id: randomBytes(32), privateKey, publicJwk: jwk, counter: 0 };
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  readonly aaguid = Buffer.alloc(16);

  /** `synced`: a passkey (backup eligible and backed up) whose counter stays 0. */
  constructor(
    readonly origin: string,
    readonly options: { synced?: boolean } = {},
  ) {}

  private flags(extra: number, tamper: Tamper) {
    let flags = FLAG_UP | extra;
    if (!tamper.noUserVerification) flags |= FLAG_UV;
    if (this.options.synced) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }

  private clientData(type: string, challenge: string, tamper: Tamper) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: tamper.challenge ?? challenge,
        origin: tamper.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** navigator.credentials.create: a new credential and its "none" attestation. */
  create(options: PublicKeyCredentialCreationOptionsJSON, tamper: Tamper = {}): RegistrationResponseJSON {
    const credential: SoftCredential = tamper.reuse ?? newCredential();
    const jwk = credential.publicJwk;
    const counter = tamper.counter ?? (this.options.synced ? 0 : 1);
    if (!this.options.synced) credential.counter = counter;
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const authData = Buffer.concat([
      sha256(tamper.rpId ?? options.rp.id ?? ''),
      Buffer.from([this.flags(FLAG_AT, tamper)]),
      count,
      this.aaguid,
      idLength,
      credential.id,
      cose,
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, tamper)),
        attestationObject: b64url(attestationObject),
        transports: ['usb'],
      },
    };
  }

  /** navigator.credentials.get: an assertion signed by `credential` (default: the first one). */
  get(
    options: PublicKeyCredentialRequestOptionsJSON,
    tamper: Tamper = {},
    credential: SoftCredential | undefined = this.credentials[0],
  ): AuthenticationResponseJSON {
    if (!credential) throw new Error('the soft authenticator has no credential');
    let counter: number;
    if (tamper.counter !== undefined) counter = tamper.counter;
    else if (this.options.synced) counter = 0;
    else counter = credential.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const authData = Buffer.concat([
      sha256(tamper.rpId ?? options.rpId ?? ''),
      Buffer.from([this.flags(0, tamper)]),
      count,
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tamper);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    };
  }
}
