/**
 * Beacon chains by their public parameters, and the public ones a verifier recognises by name.
 * No BLS code here (shared/beacon.ts has it and re-exports this file): the widget names a shoe's
 * chain without loading the curve arithmetic.
 */

/** The one scheme supported: short BLS signatures on G1, unchained, RFC 9380 hash-to-curve. */
export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';
/** A beacon chain's public parameters: everything needed to schedule and verify its rounds. */
export interface BeaconChain {
  /** The chain's identifier in relay URLs: 64 lowercase hex characters. */
  hash: string;
  scheme: typeof BEACON_SCHEME;
  /** The group's public key: a compressed G2 point, 192 lowercase hex characters. */
  publicKey: string;
  /** Seconds between rounds (a positive integer). */
  periodSeconds: number;
  /** Unix time in seconds at which round 1 is published (a non-negative integer). */
  genesisTime: number;
}

/**
 * The League of Entropy's drand `quicknet` chain, as its relays publish it at
 * `/52db9ba7…e971/info`. The two test vectors in test/shared/beacon.test.ts are its rounds 1000 and 657413.
 */
export const QUICKNET: Readonly<BeaconChain> = Object.freeze({
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  scheme: BEACON_SCHEME,
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  periodSeconds: 3,
  genesisTime: 1692803367,
});

/** A public chain whose parameters are pinned here, with the name a verifier reports. */
export interface KnownBeaconChain extends BeaconChain {
  name: string;
}

/**
 * The public beacon chains a verifier recognises, every parameter pinned: a chain is known only
 * when its hash, scheme, public key, period and genesis are all exactly these. Any other chain
 * (the Worker's local development beacon, an operator's own) is unknown: whoever holds its key
 * can compute every round, so it proves nothing about when the cards became knowable.
 */
export const KNOWN_BEACON_CHAINS: readonly Readonly<KnownBeaconChain>[] = Object.freeze([Object.freeze({ name: 'drand quicknet', ...QUICKNET })]);

/** What a verifier says of a chain: its identity, and whether it is a known public chain. */
export interface BeaconChainIdentity {
  hash: string;
  scheme: string;
  publicKey: string;
  /** The known public chain's name ("drand quicknet"), or null for an unknown chain. */
  name: string | null;
  known: boolean;
  /** Unknown, yet its hash is a known chain's (whose name this is): another key or schedule under a public chain's name. */
  impersonates?: string;
}

/** Names a chain: known only when every parameter equals a pinned public chain's. */
export function identifyChain(chain: BeaconChain): BeaconChainIdentity {
  const id = { hash: chain.hash, scheme: chain.scheme, publicKey: chain.publicKey };
  const same = KNOWN_BEACON_CHAINS.find((k) => k.hash === chain.hash);
  if (
    same &&
    same.scheme === chain.scheme &&
    same.publicKey === chain.publicKey &&
    same.periodSeconds === chain.periodSeconds &&
    same.genesisTime === chain.genesisTime
  )
    return { ...id, name: same.name, known: true };
  return { ...id, name: null, known: false, ...(same ? { impersonates: same.name } : {}) };
}
