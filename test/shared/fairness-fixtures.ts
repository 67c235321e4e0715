/** Shared fixtures of the fairness tests: the fixed test key, the golden vectors, re-signing, field paths. */
import { readFileSync } from 'node:fs';
import {
  importSigningKey,
  importVerifyKeys,
  type VerifyKeys,
  type Jwks,
  fair1RecordHash,
  signFair1Record,
  type Fair1Signed,
  type SigningKey,
  type Fair1Transcript,
} from '../../shared/index.ts';

const here = new URL('../vectors/', import.meta.url);

export const testPrivateJwk = JSON.parse(readFileSync(new URL('test-key.jwk.json', here), 'utf8')) as JsonWebKey;

export function loadVectors(): {
  key: { kid: string; publicJwk: JsonWebKey };
  transcripts: {
    name: string;
    transcript: Fair1Transcript;
    firstReceipt: { canonicalJson: string; recordBytesHex: string; hash: string; signature: string };
  }[];
  [k: string]: unknown;
} {
  return JSON.parse(readFileSync(new URL('fairness.json', here), 'utf8'));
}

let key: Promise<SigningKey> | undefined;
let verifyKeys: Promise<VerifyKeys> | undefined;
export function testKey(): Promise<SigningKey> {
  return (key ??= importSigningKey(testPrivateJwk));
}

/** The player's fixed test key (test/vectors/player-key.jwk.json) of the pb-fair-2 vectors. */
export function testPlayerKey(): Promise<SigningKey> {
  return importSigningKey(JSON.parse(readFileSync(new URL('player-key.jwk.json', here), 'utf8')) as JsonWebKey);
}

export async function testJwks(): Promise<Jwks> {
  return { keys: [(await testKey()).publicJwk] };
}

/** The test key's JWKS imported once (what a verifier checking many transcripts does). */
export function testVerifyKeys(): Promise<VerifyKeys> {
  return (verifyKeys ??= testJwks().then(importVerifyKeys));
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

type AnyRecord = Fair1Signed<{ type: string; prev?: string | null }>;

/** The records of a transcript in chain order. */
export function chain(t: Fair1Transcript): AnyRecord[] {
  return [t.commitment, ...(t.start ? [t.start] : []), ...t.receipts, ...(t.reveal ? [t.reveal] : [])] as AnyRecord[];
}

/**
 * A lying operator holding the key: re-signs record `from` (chain index) as it now is, then re-links
 * and re-signs every record after it, so only the change itself is left to find.
 */
export async function reseal(t: Fair1Transcript, from: number, signer?: SigningKey): Promise<Fair1Transcript> {
  const k = signer ?? (await testKey());
  const records = chain(t);
  // Hashes first (each links the next), then all signatures at once.
  for (let i = from; i < records.length; i++) {
    if (i > from) records[i]!.body.prev = records[i - 1]!.hash;
    records[i]!.hash = fair1RecordHash(records[i]!.body);
  }
  const signed = await Promise.all(records.slice(from).map((r) => signFair1Record(r.body, k)));
  signed.forEach((s, j) => Object.assign(records[from + j]!, s));
  return t;
}

/** Re-computes a record's hash from its body without signing (an attacker without the key). */
export function rehash(record: AnyRecord): void {
  record.hash = fair1RecordHash(record.body);
}

export type Path = (string | number)[];

/** Every leaf (string, number, boolean, null) of a JSON value, as paths. */
export function leaves(value: unknown, path: Path = []): Path[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
  }
  return [path];
}

/** Flips one leaf: numbers +1, booleans negated, strings get "!" appended, null becomes "x". */
export function flip(root: object, path: Path): void {
  let node = root as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  const v = node[last];
  node[last] = typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : typeof v === 'string' ? `${v}!` : v === null ? 'x' : v;
}
