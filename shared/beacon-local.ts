/**
 * A local beacon: one signer that publishes rounds exactly as a drand `bls-unchained-g1-rfc9380`
 * chain does (G1 short signatures over SHA-256 of the round, 8 bytes big-endian), under its own key.
 * It stands in for quicknet where the real relays cannot be reached (local development, tests):
 * its rounds go through the same `verifyBeacon` with its own `BeaconChain`. Pure: the caller
 * passes the key, the schedule and the round.
 *
 * It is NOT a public beacon: whoever holds its key knows every future round. Production points at
 * a drand relay (DEPLOY.md "Public randomness beacon").
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { BEACON_SCHEME, type BeaconChain, type BeaconRound, beaconMessagePoint, beaconRandomness, isHex, isRound } from './beacon.ts';
import { type EngineError, fail, ok, type Result } from './errors.ts';

/** A local beacon's signer and its chain. */
export interface LocalBeacon {
  chain: BeaconChain;
  /** The BLS secret key: 32 bytes, big-endian, in 1 … r − 1. */
  secretKey: Uint8Array;
}

export interface LocalSchedule {
  /** Seconds between rounds (tests use 1; the Worker's stand-in follows quicknet's 3). */
  periodSeconds: number;
  /** Unix seconds of round 1. */
  genesisTime: number;
}

/** Prefix of the canonical description whose SHA-256 is a local chain's hash. */
export const LOCAL_CHAIN_LABEL = 'punto-banco local beacon v1';

/**
 * A local chain's hash: SHA-256 of the UTF-8 text
 * `punto-banco local beacon v1|<scheme>|<public key hex>|<period seconds>|<genesis time>`
 * (decimal integers, no spaces). Any change of key or schedule is another chain.
 */
export function localChainHash(publicKey: string, schedule: LocalSchedule): string {
  const text = [LOCAL_CHAIN_LABEL, BEACON_SCHEME, publicKey, schedule.periodSeconds, schedule.genesisTime].join('|');
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** A local beacon from its 32-byte secret key; refused if the key is not a scalar in 1 … r − 1 or the schedule is malformed. */
export function localBeacon(secretKey: Uint8Array, schedule: LocalSchedule): Result<LocalBeacon, EngineError<'bad_beacon_key' | 'bad_beacon_chain'>> {
  if (!isSecretKey(secretKey)) return fail('bad_beacon_key', 'a beacon secret key is 32 bytes, big-endian, a number from 1 to the BLS12-381 group order − 1');
  if (!Number.isSafeInteger(schedule.periodSeconds) || schedule.periodSeconds < 1 || !Number.isSafeInteger(schedule.genesisTime) || schedule.genesisTime < 0) {
    return fail('bad_beacon_chain', 'a local beacon runs every whole number of seconds (≥ 1) from a genesis in Unix seconds (≥ 0)');
  }
  const publicKey = bytesToHex(bls12_381.shortSignatures.getPublicKey(secretKey).toBytes(true));
  return ok({
    chain: { hash: localChainHash(publicKey, schedule), scheme: BEACON_SCHEME, publicKey, ...schedule },
    secretKey: secretKey.slice(),
  });
}

/** A secret key from its 64-lowercase-hex form (the `BEACON_SECRET_KEY` secret), or null. */
export function parseBeaconSecretKey(hex: string): Uint8Array | null {
  if (!isHex(hex, 32)) return null;
  const key = hexToBytes(hex);
  return isSecretKey(key) ? key : null;
}

/**
 * A secret key derived from 48+ bytes of secret material (e.g. a KDF's output): reduced into
 * 1 … r − 1 with negligible bias (noble's `randomSecretKey(seed)` takes exactly 48 bytes).
 */
export function beaconSecretKeyFromSeed(seed: Uint8Array): Uint8Array {
  return bls12_381.utils.randomSecretKey(seed);
}

/** The round as a drand relay would serve it: signed with the local key, randomness = SHA-256(signature). */
export function signRound(beacon: LocalBeacon, round: number): BeaconRound {
  if (!isRound(round)) throw new RangeError(`a beacon round is a positive integer, got ${round}`);
  const signature = bls12_381.shortSignatures.sign(beaconMessagePoint(round), beacon.secretKey).toBytes(true);
  return { round, randomness: beaconRandomness(signature), signature: bytesToHex(signature) };
}

function isSecretKey(key: Uint8Array): boolean {
  if (!(key instanceof Uint8Array) || key.length !== 32) return false;
  const n = BigInt(`0x${bytesToHex(key)}`);
  return n >= 1n && n < bls12_381.fields.Fr.ORDER;
}
