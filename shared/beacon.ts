/**
 * The public randomness beacon that shared tables mix into every round (FAIRNESS.md part III): a drand
 * chain in the `bls-unchained-g1-rfc9380` scheme, such as the League of Entropy's `quicknet`.
 * Pure: no I/O, no clock; the caller passes the time.
 *
 * How such a chain works (drand "unchained" G1 scheme, RFC 9380 hash-to-curve):
 * - round 1 is published at the genesis time, round r at genesis + (r − 1) × period;
 * - the signed message of round r is SHA-256 of r as 8 bytes big-endian (unchained: the previous
 *   signature is not part of it, so any round verifies on its own);
 * - the signature is a BLS signature on G1 (48 bytes compressed) under the chain's public key on
 *   G2 (96 bytes compressed), hashed to G1 with the DST `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`;
 * - the round's randomness is SHA-256 of the signature bytes.
 * Nobody can know a round's signature before the chain's threshold of signers publishes it, and
 * nobody (not even the signers) can choose it: so a round published after betting closes is
 * unknowable to the house and the players alike while they commit.
 *
 * Verification is a pairing check in pure JavaScript (@noble/curves), the Miller loop's lines of the
 * chain's key and of the G2 generator computed once per key: some 15 ms of CPU a round in workerd,
 * a fifth to a third less than the library's own `verify`. That check is the reference, and the one
 * of the widget and the CLI; a realm may put a faster one in its place (`useBeaconSignatureCheck`:
 * the Worker installs mcl in WebAssembly, worker/beacon/mcl.ts), which must give the same answer on
 * every input. `npm run bench -- beacon` measures them. Verify once per table and round, never per player:
 * `verifyBeacon` keeps the last few signatures it found valid, so a second check of the same round is a lookup.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { BEACON_SCHEME, type BeaconChain } from './beacon-chains.ts';
import { type EngineError, fail, ok, type Result } from './errors.ts';

export * from './beacon-chains.ts';

/** The hash-to-curve domain separation tag of the scheme (G1, SHA-256, SSWU, random oracle). */
export const BEACON_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
/** Byte lengths of the compressed points and of the hashes. */
export const BEACON_SIGNATURE_BYTES = 48;
export const BEACON_PUBLIC_KEY_BYTES = 96;
export const BEACON_HASH_BYTES = 32;

/** One round as relays serve it (`GET <relay>/<chain hash>/public/<round>`). */
export interface BeaconRound {
  round: number;
  /** SHA-256 of the signature bytes, 64 lowercase hex characters. */
  randomness: string;
  /** The compressed G1 signature, 96 lowercase hex characters. */
  signature: string;
}

export type BeaconErrorCode =
  /** The round is not a positive safe integer. */
  | 'bad_beacon_round'
  /** The signature (or a served randomness) is not lowercase hex of the exact length, or not a point of G1. */
  | 'bad_beacon_encoding'
  /** The signature is a valid point but not the chain's signature of this round. */
  | 'bad_beacon_signature'
  /** The served randomness is not SHA-256 of the signature. */
  | 'bad_beacon_randomness'
  /** The chain's parameters are malformed (public key, hash, scheme, period or genesis). */
  | 'bad_beacon_chain';

export type BeaconError = EngineError<BeaconErrorCode>;

// ---- the schedule ----------------------------------------------------------------------------------

/** The nominal publication time of a round (round ≥ 1), in Unix milliseconds. */
export function timeOfRound(chain: BeaconChain, round: number): number {
  if (!isRound(round)) throw new RangeError(`a beacon round is a positive integer, got ${round}`);
  return (chain.genesisTime + (round - 1) * chain.periodSeconds) * 1000;
}

/**
 * The latest round published at `unixMs`: a round counts as published from its nominal time on
 * (inclusive). 0 before genesis (no round yet).
 */
export function roundAt(chain: BeaconChain, unixMs: number): number {
  const sinceGenesis = unixMs - chain.genesisTime * 1000;
  if (sinceGenesis < 0) return 0;
  return Math.floor(sinceGenesis / (chain.periodSeconds * 1000)) + 1;
}

/**
 * The first round published strictly after `closeMs` (a betting close), the one a shared-table
 * round is bound to: its nominal time is > closeMs. A close that falls exactly on a round's
 * publication time does NOT take that round but the next: a round published at the very instant
 * of the close may already be visible to someone (relays, clock skew) while bets are still
 * accepted, so only later rounds are unknowable to everyone at the close. Before genesis: round 1.
 */
export function firstRoundAfter(chain: BeaconChain, closeMs: number): number {
  return roundAt(chain, closeMs) + 1;
}

// ---- the round's message, signature and randomness --------------------------------------------------

/** The message the chain signs for a round: SHA-256 of the round as 8 bytes, big-endian. */
export function beaconMessage(round: number): Uint8Array {
  if (!isRound(round)) throw new RangeError(`a beacon round is a positive integer, got ${round}`);
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round), false);
  return sha256(bytes);
}

/** A round's randomness: SHA-256 of the signature bytes, as lowercase hex. */
export function beaconRandomness(signature: string | Uint8Array): string {
  return bytesToHex(sha256(typeof signature === 'string' ? hexToBytes(signature) : signature));
}

/**
 * The point on G1 a round's message hashes to (what the chain's key signs).
 * @internal Its type is the curve library's, which the npm package bundles: not in the declarations.
 */
export function beaconMessagePoint(round: number) {
  return bls12_381.shortSignatures.hash(beaconMessage(round), BEACON_DST);
}

/**
 * Checks a round's signature against the chain's public key and, when the relay served one, its
 * randomness against SHA-256 of the signature. Strict encodings: lowercase hex of the exact
 * lengths. On success, the round with its randomness computed here (never the relay's word).
 */
export function verifyBeacon(chain: BeaconChain, served: { round: number; signature: string; randomness?: string }): Result<BeaconRound, BeaconError> {
  const key = chainKey(chain);
  if (!key.ok) return key;
  if (!isRound(served.round)) return fail('bad_beacon_round', `a beacon round is a positive integer, got ${String(served.round)}`);
  if (!isHex(served.signature, BEACON_SIGNATURE_BYTES)) {
    return fail('bad_beacon_encoding', `a beacon signature is ${BEACON_SIGNATURE_BYTES * 2} lowercase hex characters (a compressed G1 point)`);
  }
  if (served.randomness !== undefined && !isHex(served.randomness, BEACON_HASH_BYTES)) {
    return fail('bad_beacon_encoding', `a beacon randomness is ${BEACON_HASH_BYTES * 2} lowercase hex characters (SHA-256)`);
  }
  const bytes = hexToBytes(served.signature);
  // The pairing is the whole cost (~10 ms); the same round is checked twice a round at a shared
  // table (the Worker's fetch, then the deal's build): the second time is a lookup of the first's answer.
  const memoKey = `${chain.publicKey}:${served.round}:${served.signature}`;
  let verdict: BeaconSignatureVerdict;
  if (verifiedSignatures.includes(memoKey)) verdict = { point: true, valid: true };
  else {
    try {
      verdict = signatureCheck(bytes, beaconMessage(served.round), chain.publicKey);
    } catch {
      verdict = { point: true, valid: false }; // a point the pairing refuses: not a signature
    }
    if (verdict.point && verdict.valid) rememberVerified(memoKey);
  }
  if (!verdict.point) return fail('bad_beacon_encoding', `the beacon signature is not a point of G1: ${verdict.reason}`);
  if (!verdict.valid) return fail('bad_beacon_signature', `the signature is not the chain's (${chain.hash.slice(0, 8)}…) signature of round ${served.round}`);
  const randomness = beaconRandomness(bytes);
  if (served.randomness !== undefined && served.randomness !== randomness) {
    return fail('bad_beacon_randomness', `the served randomness of round ${served.round} is not SHA-256 of its signature`);
  }
  return ok({ round: served.round, randomness, signature: served.signature });
}

// ---- the signature check ----------------------------------------------------------------------------

/** What a signature check finds: not a point of G1 (why), or a point that is or is not the signature. */
export type BeaconSignatureVerdict = { point: false; reason: string } | { point: true; valid: boolean };

/**
 * The check of one round's signature: `signature` the 48 bytes of a compressed G1 point (decoded
 * strictly: canonical, on the curve, in the prime-order subgroup; the point at infinity is a point
 * but never a valid signature), `message` the round's `beaconMessage` (hashed to G1 with
 * BEACON_DST), `publicKey` the chain's key as hex, already checked as a point of G2.
 */
export type BeaconSignatureCheck = (signature: Uint8Array, message: Uint8Array, publicKey: string) => BeaconSignatureVerdict;

/** The reference check, in pure JavaScript (@noble/curves): the G2 lines precomputed per chain key. */
export const nobleSignatureCheck: BeaconSignatureCheck = (signature, message, publicKey) => {
  let point: G1Point;
  try {
    point = bls12_381.shortSignatures.Signature.fromBytes(signature);
  } catch (err) {
    return { point: false, reason: (err as Error).message };
  }
  const key = decodedKeys.get(publicKey) ?? decodeKey(publicKey);
  return { point: true, valid: pairingCheck(point, bls12_381.shortSignatures.hash(message, BEACON_DST), key) };
};

/** The check `verifyBeacon` makes in this JavaScript realm. */
let signatureCheck: BeaconSignatureCheck = nobleSignatureCheck;

/**
 * The last few (public key, round, signature) the check found valid, newest last: a pure check's
 * answer kept, so a round verified once is not paired again. Only valid ones: a refusal is
 * checked anew each time (it costs a caller nothing to be told twice). Bounded: a table needs one round at a time.
 */
const verifiedSignatures: string[] = [];
const VERIFIED_SIGNATURES_KEPT = 8;

function rememberVerified(key: string): void {
  if (verifiedSignatures.length >= VERIFIED_SIGNATURES_KEPT) verifiedSignatures.shift();
  verifiedSignatures.push(key);
}

/**
 * Puts another signature check in the reference's place for every `verifyBeacon` of this realm
 * (the Worker: mcl in WebAssembly, worker/beacon/mcl.ts); none: the reference again. Only for a
 * check proven to agree with the reference on every input (the Worker's tests prove its own).
 */
export function useBeaconSignatureCheck(check: BeaconSignatureCheck = nobleSignatureCheck): void {
  signatureCheck = check;
  // What the previous check found is not this one's answer: the next verifications ask the new one.
  verifiedSignatures.length = 0;
}

/** The signature check `verifyBeacon` makes in this realm (the reference unless one was put in its place). */
export function beaconSignatureCheckInUse(): BeaconSignatureCheck {
  return signatureCheck;
}

// ---- the chain's parameters -------------------------------------------------------------------------

/** Checks a chain's parameters; the chain itself when they are well formed. */
export function checkChain(chain: BeaconChain): Result<BeaconChain, BeaconError> {
  const key = chainKey(chain);
  return key.ok ? ok(chain) : key;
}

type G1Point = ReturnType<typeof bls12_381.shortSignatures.hash>;
type G2Point = ReturnType<typeof bls12_381.shortSignatures.getPublicKey>;
/** The Miller loop's line coefficients for one fixed G2 point (the curve library's precomputation). */
type G2Lines = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>;

/**
 * A chain's public key, decoded and checked once, with the Miller loop's lines for its negation
 * computed once: every round of the chain is checked against the same two G2 points (the key and
 * the generator), so their lines are fixed and only the two G1 points change from round to round.
 */
interface ChainKey {
  point: G2Point;
  /** Computed on the reference check's first use of the key (a realm with another check never needs them). */
  negatedLines?: G2Lines;
}

/** Decoded public keys by hex: decoding a G2 point (square root, subgroup check) is worth doing once. */
const decodedKeys = new Map<string, ChainKey>();
/** The Miller loop's lines for the generator of G2, computed on first use. */
let generatorLines: G2Lines | undefined;

/**
 * The BLS check e(H(m), −pk) · e(σ, g2) = 1 in GT, the one `shortSignatures.verify` makes, with
 * the G2 lines precomputed (`npm run bench -- beacon` has both). Both G1 points are already
 * checked: `signature` decoded by `Signature.fromBytes` (on the curve, in the prime-order
 * subgroup), `message` the output of hash-to-curve. The point at infinity is no signature.
 */
function pairingCheck(signature: G1Point, message: G1Point, key: ChainKey): boolean {
  if (signature.is0() || message.is0()) return false;
  generatorLines ??= bls12_381.utils.calcPairingPrecomputes(bls12_381.G2.Point.BASE);
  const s = signature.toAffine();
  const h = message.toAffine();
  const { Fp12 } = bls12_381.fields;
  key.negatedLines ??= bls12_381.utils.calcPairingPrecomputes(key.point.negate());
  const product = bls12_381.millerLoopBatch([
    [key.negatedLines, h.x, h.y],
    [generatorLines, s.x, s.y],
  ]);
  return Fp12.eql(Fp12.finalExponentiate(product), Fp12.ONE);
}

function chainKey(chain: BeaconChain): Result<ChainKey, BeaconError> {
  if (chain.scheme !== BEACON_SCHEME) return fail('bad_beacon_chain', `unsupported beacon scheme "${String(chain.scheme)}": only ${BEACON_SCHEME}`);
  if (!isHex(chain.hash, BEACON_HASH_BYTES)) return fail('bad_beacon_chain', `a chain hash is ${BEACON_HASH_BYTES * 2} lowercase hex characters`);
  if (!Number.isSafeInteger(chain.periodSeconds) || chain.periodSeconds < 1) {
    return fail('bad_beacon_chain', `a chain's period is a positive whole number of seconds, got ${String(chain.periodSeconds)}`);
  }
  if (!Number.isSafeInteger(chain.genesisTime) || chain.genesisTime < 0) {
    return fail('bad_beacon_chain', `a chain's genesis time is Unix seconds, got ${String(chain.genesisTime)}`);
  }
  if (!isHex(chain.publicKey, BEACON_PUBLIC_KEY_BYTES)) {
    return fail('bad_beacon_chain', `a chain's public key is ${BEACON_PUBLIC_KEY_BYTES * 2} lowercase hex characters (a compressed G2 point)`);
  }
  const known = decodedKeys.get(chain.publicKey);
  if (known) return ok(known);
  try {
    return ok(decodeKey(chain.publicKey));
  } catch (err) {
    return fail('bad_beacon_chain', `the chain's public key is not a point of G2: ${(err as Error).message}`);
  }
}

/** Decodes a public key (hex of a compressed G2 point) and keeps it; throws when it is no point of G2. */
function decodeKey(publicKey: string): ChainKey {
  const point = bls12_381.G2.Point.fromBytes(hexToBytes(publicKey));
  point.assertValidity();
  if (point.is0()) throw new Error('the point at infinity');
  const key: ChainKey = { point };
  if (decodedKeys.size >= 16) decodedKeys.delete(decodedKeys.keys().next().value!);
  decodedKeys.set(publicKey, key);
  return key;
}

/** A round number: a positive safe integer (8 bytes big-endian hold it exactly). */
export function isRound(round: unknown): round is number {
  return typeof round === 'number' && Number.isSafeInteger(round) && round >= 1;
}

/** Lowercase hex of exactly `bytes` bytes. */
export function isHex(text: unknown, bytes: number): text is string {
  return typeof text === 'string' && text.length === bytes * 2 && /^[0-9a-f]*$/.test(text);
}

// ---- the chain's description as relays publish it ------------------------------------------------------

/** A chain's parameters in the JSON of a drand relay's `/<chain hash>/info` (the fields used here). */
export interface BeaconChainInfo {
  hash: string;
  schemeID: string;
  public_key: string;
  period: number;
  genesis_time: number;
}

/** The relay's JSON for a chain. */
export function chainInfo(chain: BeaconChain): BeaconChainInfo {
  return { hash: chain.hash, schemeID: chain.scheme, public_key: chain.publicKey, period: chain.periodSeconds, genesis_time: chain.genesisTime };
}

/** A chain from the JSON of a relay's `/info` (other fields ignored), checked. */
export function parseChainInfo(json: unknown): Result<BeaconChain, BeaconError> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail('bad_beacon_chain', 'a chain description is a JSON object { hash, schemeID, public_key, period, genesis_time }');
  }
  const info = json as Record<string, unknown>;
  return checkChain({
    hash: info.hash as string,
    scheme: info.schemeID as typeof BEACON_SCHEME,
    publicKey: info.public_key as string,
    periodSeconds: info.period as number,
    genesisTime: info.genesis_time as number,
  });
}
