/**
 * Ed25519 keys through WebCrypto (Node 22, workerd, browsers alike), or through @noble/ed25519 where
 * WebCrypto is missing: a browser gives `crypto.subtle` only to secure pages (https, localhost), and
 * a table embedded on a plain-http page must still sign and verify. The fallback is loaded only there. A key's id is its RFC 7638
 * JWK thumbprint unless the operator names it: base64url(SHA-256('{"crv":"Ed25519","kty":"OKP","x":"…"}')).
 * Public keys travel as a JWKS (`/.well-known/jwks.json`); retired keys stay in it so old
 * receipts keep verifying.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlToBytes, bytesToBase64url, canonicalJson, utf8Bytes } from './encoding.ts';

const ED25519 = { name: 'Ed25519' } as const;

/** Whether this runtime signs through WebCrypto (else @noble/curves, loaded on first use). */
const webCrypto = (): boolean => typeof crypto !== 'undefined' && crypto.subtle !== undefined;
let noble: Promise<typeof import('@noble/ed25519')> | null = null;
/** @noble/ed25519 with @noble/hashes' SHA-512 (noble-ed25519.ts), loaded on first use. */
const nobleEd25519 = () => (noble ??= import('./noble-ed25519.ts').then((m) => m.ed));

/** A public key ready to verify with: a WebCrypto key, or the raw 32 bytes where WebCrypto is missing. */
export type PublicKey = CryptoKey | Uint8Array;

export interface SigningKey {
  keyId: string;
  /** A WebCrypto key, or the raw 32-byte secret where WebCrypto is missing. */
  privateKey: CryptoKey | Uint8Array;
  /** kty OKP, crv Ed25519, x, kid, alg EdDSA, use sig: the entry for the JWKS. */
  publicJwk: JsonWebKey;
}

export interface Jwks {
  keys: JsonWebKey[];
}

/** An Ed25519 public key's `x`: 32 bytes, canonical unpadded base64url. */
export function isEd25519X(x: unknown): x is string {
  return typeof x === 'string' && base64urlToBytes(x)?.length === 32;
}

/** RFC 7638 thumbprint of an Ed25519 public key: base64url SHA-256 of its required members in canonical JSON. */
export function jwkThumbprint(jwk: { x: string }): string {
  return bytesToBase64url(sha256(utf8Bytes(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x: jwk.x }))));
}

/** The public JWK (JWKS entry) for an Ed25519 key. */
export function ed25519PublicJwk(x: string, kid: string): JsonWebKey {
  return { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' } as JsonWebKey;
}

/** A new extractable Ed25519 key pair; `privateJwk` (with d, x and kid) is what to store as a secret. */
export async function generateSigningKey(keyId?: string): Promise<{ key: SigningKey; privateJwk: JsonWebKey }> {
  if (!webCrypto()) {
    const ed25519 = await nobleEd25519();
    const d = ed25519.utils.randomSecretKey();
    const x = bytesToBase64url(ed25519.getPublicKey(d));
    const kid = keyId ?? jwkThumbprint({ x });
    const privateJwk = { kty: 'OKP', crv: 'Ed25519', x, d: bytesToBase64url(d), kid, alg: 'EdDSA', use: 'sig' } as JsonWebKey;
    return { key: { keyId: kid, privateKey: d, publicJwk: ed25519PublicJwk(x, kid) }, privateJwk };
  }
  // The casts only narrow for runtime typings (workers-types) that overload these less precisely.
  const pair = (await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify'])) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const x = exported.x!;
  const kid = keyId ?? jwkThumbprint({ x });
  const privateJwk = { kty: 'OKP', crv: 'Ed25519', x, d: exported.d!, kid, alg: 'EdDSA', use: 'sig' } as JsonWebKey;
  return { key: { keyId: kid, privateKey: pair.privateKey, publicJwk: ed25519PublicJwk(x, kid) }, privateJwk };
}

/**
 * A signing key from a private JWK (kty OKP, crv Ed25519, d and x; kid optional, else the
 * thumbprint). Checks that d and x belong together by signing and verifying once.
 */
export async function importSigningKey(privateJwk: JsonWebKey): Promise<SigningKey> {
  const { kty, crv, x, d, kid } = privateJwk as JsonWebKey & { kid?: string };
  if (kty !== 'OKP' || crv !== 'Ed25519') throw new TypeError('the signing key must be an Ed25519 JWK (kty "OKP", crv "Ed25519")');
  if (!isEd25519X(x) || typeof d !== 'string' || base64urlToBytes(d)?.length !== 32) {
    throw new TypeError('the signing key needs "x" and "d", each 32 bytes in base64url');
  }
  const mismatch = () => new TypeError('the signing key\'s "x" is not the public key of its "d"');
  const keyId = typeof kid === 'string' && kid.length > 0 ? kid : jwkThumbprint({ x });
  if (!webCrypto()) {
    const ed25519 = await nobleEd25519();
    const secret = base64urlToBytes(d)!;
    if (bytesToBase64url(ed25519.getPublicKey(secret)) !== x) throw mismatch();
    return { keyId, privateKey: secret, publicJwk: ed25519PublicJwk(x, keyId) };
  }
  // Some runtimes check x against d on import (Node), others do not: the probe below catches those.
  const privateKey = await crypto.subtle.importKey('jwk', { kty, crv, x, d }, ED25519, false, ['sign']).catch(() => Promise.reject(mismatch()));
  const publicKey = await crypto.subtle.importKey('jwk', { kty, crv, x }, ED25519, false, ['verify']);
  const probe = utf8Bytes('pb-fair-1/key-check');
  const sig = await crypto.subtle.sign(ED25519, privateKey, probe);
  if (!(await crypto.subtle.verify(ED25519, publicKey, sig, probe))) throw mismatch();
  return { keyId, privateKey, publicJwk: ed25519PublicJwk(x, keyId) };
}

/** Ed25519 signature (64 bytes, base64url) over `message`. */
export async function signBytes(key: SigningKey, message: Uint8Array<ArrayBuffer>): Promise<string> {
  if (key.privateKey instanceof Uint8Array) return bytesToBase64url((await nobleEd25519()).sign(message, key.privateKey));
  return bytesToBase64url(new Uint8Array(await crypto.subtle.sign(ED25519, key.privateKey, message)));
}

/** Public keys by key id, each imported once, for verifying many records. */
export interface VerifyKeys {
  byId: ReadonlyMap<string, PublicKey>;
  /** JWKS entries that were not usable Ed25519 keys, with why (other key types are normal in a JWKS). */
  skipped: readonly { kid: string | null; reason: string }[];
}

export function isVerifyKeys(value: Jwks | VerifyKeys): value is VerifyKeys {
  return 'byId' in value && value.byId instanceof Map;
}

/** Imports every Ed25519 key of a JWKS once; a key without `kid` is known by its thumbprint. The first of two equal kids wins. */
export async function importVerifyKeys(jwks: Jwks): Promise<VerifyKeys> {
  const entries: unknown[] = jwks && Array.isArray(jwks.keys) ? jwks.keys : [];
  const imported = await Promise.all(entries.map(importPublic));
  const byId = new Map<string, PublicKey>();
  const skipped: { kid: string | null; reason: string }[] = [];
  for (const r of imported) {
    if ('reason' in r) skipped.push(r);
    else if (byId.has(r.kid)) skipped.push({ kid: r.kid, reason: 'another key in the JWKS has the same kid' });
    else byId.set(r.kid, r.key);
  }
  return { byId, skipped };
}

async function importPublic(entry: unknown): Promise<{ kid: string; key: PublicKey } | { kid: string | null; reason: string }> {
  const jwk = (entry ?? {}) as JsonWebKey & { kid?: unknown };
  const kid = typeof jwk.kid === 'string' ? jwk.kid : null;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return { kid, reason: 'not an Ed25519 key' };
  if (!isEd25519X(jwk.x)) return { kid, reason: '"x" is not 32 bytes of base64url' };
  try {
    const key = await importPublicKey(jwk.x);
    return { kid: kid ?? jwkThumbprint({ x: jwk.x }), key };
  } catch (err) {
    return { kid, reason: `WebCrypto refused it: ${(err as Error).message}` };
  }
}

/** An Ed25519 public key (`x`, 32 bytes of base64url, already checked) ready to verify with. */
export async function importPublicKey(x: string): Promise<PublicKey> {
  if (!webCrypto()) return base64urlToBytes(x)!;
  return crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, ED25519, false, ['verify']);
}

/** Whether `signature` (base64url) is a valid Ed25519 signature of `message` by `key`. */
export async function verifyBytes(key: PublicKey, signature: string, message: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const sig = base64urlToBytes(signature);
  if (!sig || sig.length !== 64) return false;
  try {
    if (key instanceof Uint8Array) return (await nobleEd25519()).verify(sig, message, key);
    return await crypto.subtle.verify(ED25519, key, sig, message);
  } catch {
    return false;
  }
}
