/**
 * Fixtures of the shared-table tests, vectors and conformance cases: deterministic Ed25519 keys
 * for seats, the fixed operator key, a local beacon with a fixed key, and the real quicknet rounds.
 */
import { readFileSync } from 'node:fs';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { QUICKNET, type BeaconRound } from '../../shared/beacon.ts';
import { beaconSecretKeyFromSeed, type LocalBeacon, localBeacon, signRound } from '../../shared/beacon-local.ts';
import { bytesToBase64url, bytesToHex, importSigningKey, type SigningKey, utf8Bytes } from '../../shared/index.ts';
import { playSharedTable, type SharedShoeScript } from '../players/pb-shared-1.ts';

const here = new URL('../vectors/', import.meta.url);

export const hexOf = (text: string): string => bytesToHex(sha256(utf8Bytes(text)));

/** The operator's fixed test key (test/vectors/test-key.jwk.json, FAIRNESS.md §13.2). */
export const operatorKey = (): Promise<SigningKey> => importSigningKey(JSON.parse(readFileSync(new URL('test-key.jwk.json', here), 'utf8')) as JsonWebKey);

/** A seat's Ed25519 key: the private key is SHA-256 of `pb-shared-1 seat <label>`. */
export function seatKey(label: string | number): Promise<SigningKey> {
  const d = sha256(utf8Bytes(`pb-shared-1 seat ${label}`));
  const x = ed25519.getPublicKey(d);
  return importSigningKey({ kty: 'OKP', crv: 'Ed25519', d: bytesToBase64url(d), x: bytesToBase64url(x) });
}

/** The vectors' local beacon: BLS key from SHA-256-stretched "pb-shared-1 vector beacon", period 3 s, genesis 2025-01-01T00:00:00Z. */
export function vectorBeacon(): LocalBeacon {
  const seed = new Uint8Array(48);
  seed.set(sha256(utf8Bytes('pb-shared-1 vector beacon')));
  seed.set(sha256(utf8Bytes('pb-shared-1 vector beacon 2')).slice(0, 16), 32);
  const made = localBeacon(beaconSecretKeyFromSeed(seed), { periodSeconds: 3, genesisTime: Date.UTC(2025, 0, 1) / 1000 });
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
}

const signed = new Map<number, BeaconRound>();
/** The local beacon's rounds, memoised (a BLS signature costs milliseconds). */
export function vectorBeaconRound(round: number): BeaconRound {
  let r = signed.get(round);
  if (!r) signed.set(round, (r = signRound(vectorBeacon(), round)));
  return r;
}

/** Rounds of the real quicknet chain, as its relays served them. */
export const QUICKNET_ROUNDS: Record<number, BeaconRound> = {
  1000: {
    round: 1000,
    signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
    randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
  },
  657413: {
    round: 657413,
    signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
    randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
  },
};
export { QUICKNET };

/** One pb-shared-2 shoe played at table `table` by `players` (100,000 each) on the vector beacon, signed by the test operator: its file. */
export async function playMerkleShoe(table: string, players: SigningKey[], shoe: SharedShoeScript): Promise<{ version: string; records: any[] }> {
  const f = await playSharedTable({
    table,
    operatorKey: await operatorKey(),
    players,
    balances: players.map(() => 100_000),
    chain: vectorBeacon().chain,
    beacon: vectorBeaconRound,
    version: 'pb-shared-2',
    shoes: [shoe],
  });
  return { version: f.version, records: f.records };
}
