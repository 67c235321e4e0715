import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { describe, expect, test } from 'vitest';
import {
  BEACON_DST,
  beaconMessage,
  beaconMessagePoint,
  beaconRandomness,
  type BeaconChain,
  chainInfo,
  firstRoundAfter,
  nobleSignatureCheck,
  parseChainInfo,
  QUICKNET,
  roundAt,
  timeOfRound,
  useBeaconSignatureCheck,
  verifyBeacon,
} from '../../shared/beacon.ts';
import { beaconSecretKeyFromSeed, localBeacon, localChainHash, parseBeaconSecretKey, signRound } from '../../shared/beacon-local.ts';

// Rounds of the real quicknet chain, as its relays served them (signature and randomness).
const R1000 = {
  round: 1000,
  signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
};
const R657413 = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
};

/** The hex with one bit flipped in the byte at `index`. */
function flipBit(hex: string, index: number, bit = 0): string {
  const bytes = Buffer.from(hex, 'hex');
  bytes[index]! ^= 1 << bit;
  return bytes.toString('hex');
}

describe('quicknet rounds verify', () => {
  test.each([R1000, R657413])('round $round verifies, with its randomness', (vector) => {
    expect(verifyBeacon(QUICKNET, vector)).toEqual({ ok: true, value: vector });
    expect(verifyBeacon(QUICKNET, { round: vector.round, signature: vector.signature })).toEqual({ ok: true, value: vector });
  });

  test.each([R1000, R657413])('the signature of round $round fails for the next and the previous round', (vector) => {
    for (const round of [vector.round + 1, vector.round - 1]) {
      const r = verifyBeacon(QUICKNET, { round, signature: vector.signature });
      expect(r.ok || r.error.code).toBe('bad_beacon_signature');
    }
  });

  test("one round is not another round's signature", () => {
    const r = verifyBeacon(QUICKNET, { round: 1000, signature: R657413.signature });
    expect(r.ok || r.error.code).toBe('bad_beacon_signature');
  });

  test('a flipped bit in the signature fails', () => {
    // A low bit of the x coordinate: still hex of the right length, usually off the curve (an
    // encoding error) or another point (a bad signature); never valid.
    for (const [index, bit] of [
      [47, 0],
      [20, 3],
      [1, 7],
    ] as const) {
      const r = verifyBeacon(QUICKNET, { round: 1000, signature: flipBit(R1000.signature, index, bit) });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(['bad_beacon_signature', 'bad_beacon_encoding']).toContain(r.error.code);
    }
  });

  test("a flipped bit in the chain's public key fails", () => {
    const chain = { ...QUICKNET, publicKey: flipBit(QUICKNET.publicKey, 95) };
    const r = verifyBeacon(chain, R1000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['bad_beacon_signature', 'bad_beacon_chain']).toContain(r.error.code);
  });

  test('a served randomness that is not SHA-256 of the signature is refused', () => {
    const r = verifyBeacon(QUICKNET, { ...R1000, randomness: R657413.randomness });
    expect(r.ok || r.error.code).toBe('bad_beacon_randomness');
  });

  test('the randomness is SHA-256 of the signature bytes', () => {
    for (const v of [R1000, R657413]) {
      expect(beaconRandomness(v.signature)).toBe(v.randomness);
      expect(createHash('sha256').update(Buffer.from(v.signature, 'hex')).digest('hex')).toBe(v.randomness);
    }
  });
});

/** The compressed encoding of a point of G1's curve y² = x³ + 4 that is NOT in the prime-order subgroup. */
function pointOutsideG1(): string {
  const { Fp } = bls12_381.fields;
  for (let x = 1n; ; x++) {
    let y: bigint;
    try {
      y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n));
    } catch {
      continue; // no point with this x
    }
    const point = bls12_381.G1.Point.fromAffine({ x, y });
    if (point.isTorsionFree()) continue; // (the cofactor makes this all but impossible)
    const bytes = Buffer.from(x.toString(16).padStart(96, '0'), 'hex'); // x, 48 bytes big-endian
    bytes[0]! |= 0x80; // compressed
    if (y > (Fp.ORDER - 1n) / 2n) bytes[0]! |= 0x20; // the larger root
    return bytes.toString('hex');
  }
}

describe('a round checked twice (the fetch, then the deal)', () => {
  test('the signature check runs once for a valid round; a refusal, another round or another check is checked anew', () => {
    const checked: string[] = [];
    useBeaconSignatureCheck((signature, message, key) => {
      checked.push(Buffer.from(signature).toString('hex'));
      return nobleSignatureCheck(signature, message, key);
    });
    try {
      expect(verifyBeacon(QUICKNET, R1000)).toEqual({ ok: true, value: R1000 });
      expect(verifyBeacon(QUICKNET, { round: R1000.round, signature: R1000.signature })).toEqual({ ok: true, value: R1000 });
      expect(checked).toEqual([R1000.signature]);
      // Remembered is the signature's validity only: a wrong served randomness is still refused, the round still matters.
      expect(verifyBeacon(QUICKNET, { ...R1000, randomness: R657413.randomness })).toMatchObject({ ok: false, error: { code: 'bad_beacon_randomness' } });
      expect(verifyBeacon(QUICKNET, { ...R1000, round: 1001 })).toMatchObject({ ok: false, error: { code: 'bad_beacon_signature' } });
      expect(verifyBeacon(QUICKNET, { ...R1000, round: 1001 })).toMatchObject({ ok: false, error: { code: 'bad_beacon_signature' } });
      expect(checked).toEqual([R1000.signature, R1000.signature, R1000.signature]);
      // Another chain key: its own check.
      expect(verifyBeacon({ ...QUICKNET, publicKey: flipBit(QUICKNET.publicKey, 95) }, R1000).ok).toBe(false);
      // A check put in place forgets what the one before found.
      useBeaconSignatureCheck(() => ({ point: true, valid: false }));
      expect(verifyBeacon(QUICKNET, R1000)).toMatchObject({ ok: false, error: { code: 'bad_beacon_signature' } });
    } finally {
      useBeaconSignatureCheck();
    }
  });
});

describe('the pairing check (G2 lines precomputed per chain key)', () => {
  const { shortSignatures } = bls12_381;
  const quicknetKey = bls12_381.G2.Point.fromBytes(Buffer.from(QUICKNET.publicKey, 'hex'));
  const local = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(7)), { periodSeconds: 3, genesisTime: QUICKNET.genesisTime });
  if (!local.ok) throw new Error(local.error.message);
  const localRound = signRound(local.value, 42);
  const localKey = bls12_381.G2.Point.fromBytes(Buffer.from(local.value.chain.publicKey, 'hex'));

  /** The curve library's own `verify` (no precomputation): the reference the fast check must agree with. */
  function libraryVerify(key: typeof quicknetKey, round: number, signature: string): boolean {
    const point = shortSignatures.Signature.fromBytes(Buffer.from(signature, 'hex'));
    return shortSignatures.verify(point, shortSignatures.hash(beaconMessage(round), BEACON_DST), key);
  }

  test('agrees with the library verify on real rounds, other rounds, and two chains in turn', () => {
    const cases: Array<[BeaconChain, typeof quicknetKey, number, string]> = [
      [QUICKNET, quicknetKey, R1000.round, R1000.signature],
      [QUICKNET, quicknetKey, R657413.round, R657413.signature],
      [QUICKNET, quicknetKey, R1000.round + 1, R1000.signature],
      [QUICKNET, quicknetKey, R657413.round, R1000.signature],
      [local.value.chain, localKey, localRound.round, localRound.signature],
      [local.value.chain, localKey, R1000.round, R1000.signature], // quicknet's round under the local key
      [QUICKNET, quicknetKey, localRound.round, localRound.signature], // the local round under quicknet's key
      [QUICKNET, quicknetKey, R1000.round, R1000.signature], // quicknet again, after the other key was cached
    ];
    const verdicts = cases.map(([chain, key, round, signature]) => {
      const r = verifyBeacon(chain, { round, signature });
      expect(r.ok || r.error.code).toBe(libraryVerify(key, round, signature) ? true : 'bad_beacon_signature');
      return r.ok;
    });
    expect(verdicts).toEqual([true, true, false, false, true, false, false, true]);
  });

  test('another point of G1 (the signature plus the generator) is a bad signature, not a valid one', () => {
    const moved = shortSignatures.Signature.fromBytes(Buffer.from(R1000.signature, 'hex')).add(bls12_381.G1.Point.BASE);
    const signature = Buffer.from(shortSignatures.Signature.toBytes(moved)).toString('hex');
    const r = verifyBeacon(QUICKNET, { round: 1000, signature });
    expect(r.ok || r.error.code).toBe('bad_beacon_signature');
  });

  test('a point of the curve outside the prime-order subgroup is refused as an encoding', () => {
    const r = verifyBeacon(QUICKNET, { round: 1000, signature: pointOutsideG1() });
    expect(r.ok || r.error.code).toBe('bad_beacon_encoding');
    if (!r.ok) expect(r.error.message).toMatch(/subgroup/);
  });

  test("the message point is the round's hash to G1, never the point at infinity", () => {
    for (const round of [1, 1000, 657413]) expect(beaconMessagePoint(round).is0()).toBe(false);
  });
});

describe('strict encodings', () => {
  test.each([
    ['upper-case hex', R1000.signature.toUpperCase()],
    ['a 0x prefix', `0x${R1000.signature}`],
    ['one byte short', R1000.signature.slice(0, -2)],
    ['one byte long', `${R1000.signature}00`],
    ['not hex', `${R1000.signature.slice(0, -1)}g`],
    ['the point at infinity', `c0${'00'.repeat(47)}`],
    ['the uncompressed flag', `${(parseInt(R1000.signature.slice(0, 2), 16) & 0x7f).toString(16).padStart(2, '0')}${R1000.signature.slice(2)}`],
  ])('a signature in %s is refused as an encoding error', (_what, signature) => {
    const r = verifyBeacon(QUICKNET, { round: 1000, signature });
    expect(r.ok || r.error.code).toBe(_what === 'the point at infinity' ? 'bad_beacon_signature' : 'bad_beacon_encoding');
  });

  test.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN])('round %s is refused', (round) => {
    const r = verifyBeacon(QUICKNET, { round, signature: R1000.signature });
    expect(r.ok || r.error.code).toBe('bad_beacon_round');
  });

  test('a randomness in upper case is refused', () => {
    const r = verifyBeacon(QUICKNET, { ...R1000, randomness: R1000.randomness.toUpperCase() });
    expect(r.ok || r.error.code).toBe('bad_beacon_encoding');
  });

  test.each<[string, Partial<BeaconChain>]>([
    ['a short public key', { publicKey: QUICKNET.publicKey.slice(2) }],
    ['an upper-case public key', { publicKey: QUICKNET.publicKey.toUpperCase() }],
    ['another scheme', { scheme: 'pedersen-bls-chained' as 'bls-unchained-g1-rfc9380' }],
    ['a period of zero', { periodSeconds: 0 }],
    ['a fractional genesis', { genesisTime: 1.5 }],
    ['a short chain hash', { hash: 'abcd' }],
  ])('a chain with %s is refused', (_what, change) => {
    const r = verifyBeacon({ ...QUICKNET, ...change }, R1000);
    expect(r.ok || r.error.code).toBe('bad_beacon_chain');
  });
});

describe('the message of a round', () => {
  test('is SHA-256 of the round as 8 bytes big-endian', () => {
    for (const round of [1, 1000, 657413, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      const be = Buffer.alloc(8);
      be.writeBigUInt64BE(BigInt(round));
      expect(Buffer.from(beaconMessage(round)).toString('hex')).toBe(createHash('sha256').update(be).digest('hex'));
    }
  });

  test('refuses what is not a round', () => {
    for (const round of [0, -3, 2.5, 2 ** 53]) expect(() => beaconMessage(round)).toThrow(RangeError);
  });
});

describe('the schedule', () => {
  const g = QUICKNET.genesisTime * 1000;

  test('round 1 is published at genesis, round r one period later than round r − 1', () => {
    expect(timeOfRound(QUICKNET, 1)).toBe(g);
    expect(timeOfRound(QUICKNET, 2)).toBe(g + 3000);
    expect(timeOfRound(QUICKNET, 1000)).toBe(g + 999 * 3000);
    expect(() => timeOfRound(QUICKNET, 0)).toThrow(RangeError);
  });

  test('roundAt: no round before genesis; a round counts from its publication time on', () => {
    expect(roundAt(QUICKNET, 0)).toBe(0);
    expect(roundAt(QUICKNET, g - 1)).toBe(0);
    expect(roundAt(QUICKNET, g)).toBe(1);
    expect(roundAt(QUICKNET, g + 2999)).toBe(1);
    expect(roundAt(QUICKNET, g + 3000)).toBe(2);
    expect(roundAt(QUICKNET, g + 3001)).toBe(2);
  });

  test('roundAt and timeOfRound agree on every boundary', () => {
    for (const round of [1, 2, 3, 999, 1000, 657413, 50_000_000]) {
      const t = timeOfRound(QUICKNET, round);
      expect(roundAt(QUICKNET, t)).toBe(round);
      expect(roundAt(QUICKNET, t - 1)).toBe(round - 1);
      expect(roundAt(QUICKNET, t + QUICKNET.periodSeconds * 1000 - 1)).toBe(round);
    }
  });

  test('the first round after a close is published strictly after it', () => {
    const t1000 = timeOfRound(QUICKNET, 1000);
    expect(firstRoundAfter(QUICKNET, t1000 - 1)).toBe(1000);
    // A close exactly at round 1000's publication time: 1000 may already be known, so 1001.
    expect(firstRoundAfter(QUICKNET, t1000)).toBe(1001);
    expect(firstRoundAfter(QUICKNET, t1000 + 1)).toBe(1001);
    expect(firstRoundAfter(QUICKNET, t1000 + 2999)).toBe(1001);
    // Before genesis, and at genesis.
    expect(firstRoundAfter(QUICKNET, 0)).toBe(1);
    expect(firstRoundAfter(QUICKNET, g - 1)).toBe(1);
    expect(firstRoundAfter(QUICKNET, g)).toBe(2);
    for (const close of [g - 5, g, g + 1, g + 4_321_987, t1000]) {
      const r = firstRoundAfter(QUICKNET, close);
      expect(timeOfRound(QUICKNET, r)).toBeGreaterThan(close);
      if (r > 1) expect(timeOfRound(QUICKNET, r - 1)).toBeLessThanOrEqual(close);
    }
  });

  test('a one-second chain with another genesis', () => {
    const chain = { ...QUICKNET, periodSeconds: 1, genesisTime: 100 };
    expect(roundAt(chain, 100_000)).toBe(1);
    expect(roundAt(chain, 100_999)).toBe(1);
    expect(roundAt(chain, 101_000)).toBe(2);
    expect(firstRoundAfter(chain, 101_000)).toBe(3);
    expect(timeOfRound(chain, 3)).toBe(102_000);
  });
});

describe('chain descriptions', () => {
  test("quicknet round-trips through the relay's /info JSON", () => {
    expect(parseChainInfo(JSON.parse(JSON.stringify(chainInfo(QUICKNET))))).toEqual({ ok: true, value: QUICKNET });
    expect(chainInfo(QUICKNET)).toMatchObject({ hash: QUICKNET.hash, schemeID: 'bls-unchained-g1-rfc9380', period: 3, genesis_time: 1692803367 });
  });

  test('a malformed description is refused', () => {
    for (const json of [null, [], 'quicknet', { ...chainInfo(QUICKNET), period: '3' }, { ...chainInfo(QUICKNET), public_key: undefined }]) {
      const r = parseChainInfo(json);
      expect(r.ok || r.error.code).toBe('bad_beacon_chain');
    }
  });
});

describe('a local beacon', () => {
  const secretKey = beaconSecretKeyFromSeed(new Uint8Array(48).fill(7));
  const made = localBeacon(secretKey, { periodSeconds: 1, genesisTime: 1_700_000_000 });
  if (!made.ok) throw new Error(made.error.message);
  const beacon = made.value;

  test('its rounds verify under its own chain', () => {
    for (const round of [1, 2, 1000, 657413]) {
      const served = signRound(beacon, round);
      expect(served.randomness).toBe(beaconRandomness(served.signature));
      expect(verifyBeacon(beacon.chain, served)).toEqual({ ok: true, value: served });
    }
  });

  test("its rounds fail under quicknet's key, and for another round", () => {
    const served = signRound(beacon, 1000);
    const asQuicknet = verifyBeacon(QUICKNET, served);
    expect(asQuicknet.ok || asQuicknet.error.code).toBe('bad_beacon_signature');
    const shifted = verifyBeacon(beacon.chain, { ...served, round: 1001 });
    expect(shifted.ok || shifted.error.code).toBe('bad_beacon_signature');
  });

  test("quicknet's rounds fail under its key", () => {
    const r = verifyBeacon(beacon.chain, R1000);
    expect(r.ok || r.error.code).toBe('bad_beacon_signature');
  });

  test('signing is deterministic: one signature per key and round', () => {
    expect(signRound(beacon, 42)).toEqual(signRound(beacon, 42));
    expect(signRound(beacon, 42).signature).not.toBe(signRound(beacon, 43).signature);
  });

  test('its chain hash is SHA-256 of the canonical description, and changes with the key and the schedule', () => {
    const c = beacon.chain;
    const text = `punto-banco local beacon v1|bls-unchained-g1-rfc9380|${c.publicKey}|1|1700000000`;
    expect(c.hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(localChainHash(c.publicKey, { periodSeconds: 3, genesisTime: 1_700_000_000 })).not.toBe(c.hash);
    const other = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(8)), { periodSeconds: 1, genesisTime: 1_700_000_000 });
    expect(other.ok && other.value.chain.hash).not.toBe(c.hash);
    expect(c).toMatchObject({ scheme: 'bls-unchained-g1-rfc9380', periodSeconds: 1, genesisTime: 1_700_000_000 });
    expect(c.publicKey).toMatch(/^[0-9a-f]{192}$/);
  });

  test('secret keys: 64 lowercase hex characters of a scalar in 1 … r − 1', () => {
    const hex = Buffer.from(secretKey).toString('hex');
    expect(parseBeaconSecretKey(hex)).toEqual(secretKey);
    const order = '73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001';
    for (const bad of [hex.toUpperCase(), hex.slice(2), '00'.repeat(32), order, 'ff'.repeat(32)]) expect(parseBeaconSecretKey(bad)).toBeNull();
    const r = localBeacon(new Uint8Array(32), { periodSeconds: 1, genesisTime: 0 });
    expect(r.ok || r.error.code).toBe('bad_beacon_key');
    const s = localBeacon(secretKey, { periodSeconds: 0, genesisTime: 0 });
    expect(s.ok || s.error.code).toBe('bad_beacon_chain');
  });
});
