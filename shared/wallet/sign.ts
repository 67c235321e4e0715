/**
 * Signing and checking the messages between the provider (this product) and an operator: wallet
 * calls and their answers, and the operator's launch request (WALLET.md "Signatures").
 *
 * The signed bytes are, in this order, the UTF-8 of
 *   `pb-wallet-1\n<direction>\n<METHOD>\n<path>\n<timestamp>\n<nonce>\n`
 * followed by the body's exact bytes, where direction is `request` or `answer`. The signature is
 * HMAC-SHA256 over them with the secret of that direction, written as 64 lower-case hex digits. An
 * answer repeats its request's method, path and nonce, with its own timestamp, so it cannot be
 * replayed against another request. Everything runs on WebCrypto: the Worker, Node and browsers.
 */
import { type EngineError, fail, ok, type Result } from '../errors.ts';

/** The headers that carry a signature (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'PB-Signature';
export const TIMESTAMP_HEADER = 'PB-Timestamp';
export const NONCE_HEADER = 'PB-Nonce';

/** How far a timestamp may be from the receiver's clock: five minutes either way. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** A nonce: 16 to 64 of `A–Z a–z 0–9 _ -` (e.g. 32 hex digits of a CSPRNG). */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export type Direction = 'request' | 'answer';

export interface SignedParts {
  direction: Direction;
  /** Upper case, e.g. `POST`. */
  method: string;
  /** The request path, e.g. `/wallet/debit` (no host, no query). */
  path: string;
  /** Unix time in whole seconds. */
  timestamp: number;
  nonce: string;
  /** The body's exact bytes: a string is taken as its UTF-8. */
  body: Uint8Array | string;
}

export type SignatureHeaders = {
  'PB-Signature': string;
  'PB-Timestamp': string;
  'PB-Nonce': string;
};

export type SignatureErrorCode = 'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'nonce_reused' | 'bad_signature';

const encoder = new TextEncoder();

/** The exact bytes the HMAC covers. */
export function signedBytes(parts: SignedParts): Uint8Array {
  const head = encoder.encode(`pb-wallet-1\n${parts.direction}\n${parts.method}\n${parts.path}\n${parts.timestamp}\n${parts.nonce}\n`);
  const body = typeof parts.body === 'string' ? encoder.encode(parts.body) : parts.body;
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** HMAC-SHA256 of the signed bytes, 64 lower-case hex digits. */
export async function walletSignature(secret: string, parts: SignedParts): Promise<string> {
  return hex(await crypto.subtle.sign('HMAC', await hmacKey(secret), signedBytes(parts) as Uint8Array<ArrayBuffer>));
}

/** The three headers of a signed message. */
export async function signWalletMessage(secret: string, parts: SignedParts): Promise<SignatureHeaders> {
  if (!NONCE_PATTERN.test(parts.nonce)) throw new RangeError(`a nonce is 16 to 64 of A-Z a-z 0-9 _ -, got "${parts.nonce}"`);
  if (!Number.isSafeInteger(parts.timestamp) || parts.timestamp < 0) throw new RangeError(`a timestamp is whole Unix seconds, got ${parts.timestamp}`);
  return {
    [SIGNATURE_HEADER]: await walletSignature(secret, parts),
    [TIMESTAMP_HEADER]: String(parts.timestamp),
    [NONCE_HEADER]: parts.nonce,
  } as SignatureHeaders;
}

/** A header lookup that ignores case: a `Headers` object, or a plain record. */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | string[] | undefined>>;

export function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === lower) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

export interface VerifyInput {
  secret: string;
  direction: Direction;
  method: string;
  path: string;
  headers: HeaderSource;
  body: Uint8Array | string;
  /** The receiver's clock, Unix seconds. */
  now: number;
  /** Defaults to SIGNATURE_WINDOW_SECONDS. */
  windowSeconds?: number;
  /**
   * Whether this nonce was already accepted (a request), or, for an answer, whether it is NOT the
   * nonce of the request it answers. The caller keeps the store; a nonce need be kept only as long
   * as the window, since an older timestamp is refused anyway.
   */
  nonceRefused: (nonce: string) => boolean;
}

/** The checked timestamp and nonce of a message whose signature holds. */
export interface VerifiedMessage {
  timestamp: number;
  nonce: string;
}

/**
 * Checks a signed message, in this order: the three headers are there (`missing_signature`) and
 * well formed (`malformed_signature`), the timestamp is within the window (`stale_timestamp`), the
 * HMAC matches (`bad_signature`, compared in constant time by WebCrypto's verify), and only then
 * the nonce is new (`nonce_reused`), so a forger cannot burn nonces.
 */
export async function verifyWalletMessage(input: VerifyInput): Promise<Result<VerifiedMessage, EngineError<SignatureErrorCode>>> {
  const signature = header(input.headers, SIGNATURE_HEADER);
  const stamp = header(input.headers, TIMESTAMP_HEADER);
  const nonce = header(input.headers, NONCE_HEADER);
  if (signature === undefined || stamp === undefined || nonce === undefined) {
    return fail('missing_signature', `the ${SIGNATURE_HEADER}, ${TIMESTAMP_HEADER} and ${NONCE_HEADER} headers are required`);
  }
  if (!/^[0-9a-f]{64}$/.test(signature)) return fail('malformed_signature', `${SIGNATURE_HEADER} must be 64 lower-case hex digits`);
  if (!/^(0|[1-9]\d{0,15})$/.test(stamp)) return fail('malformed_signature', `${TIMESTAMP_HEADER} must be whole Unix seconds`);
  if (!NONCE_PATTERN.test(nonce)) return fail('malformed_signature', `${NONCE_HEADER} must be 16 to 64 of A-Z a-z 0-9 _ -`);
  const timestamp = Number(stamp);
  const window = input.windowSeconds ?? SIGNATURE_WINDOW_SECONDS;
  if (Math.abs(input.now - timestamp) > window) {
    return fail('stale_timestamp', `the timestamp ${timestamp} is ${input.now - timestamp} s from this clock; at most ${window} s either way is accepted`);
  }
  const parts: SignedParts = { direction: input.direction, method: input.method, path: input.path, timestamp, nonce, body: input.body };
  const key = await crypto.subtle.importKey('raw', encoder.encode(input.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const given = Uint8Array.from(signature.match(/../g)!, (h) => parseInt(h, 16));
  const good = await crypto.subtle.verify('HMAC', key, given, signedBytes(parts) as Uint8Array<ArrayBuffer>);
  if (!good) return fail('bad_signature', `the ${input.direction}'s signature does not match its method, path, timestamp, nonce and body`);
  if (input.nonceRefused(nonce)) {
    return fail('nonce_reused', input.direction === 'request' ? `the nonce ${nonce} was already used` : `the answer's nonce ${nonce} is not the request's`);
  }
  return ok({ timestamp, nonce });
}
