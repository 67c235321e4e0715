/**
 * The Worker's beacon check in WebAssembly (herumi's mcl, worker/beacon/mcl.ts) against the
 * pure-JavaScript reference (@noble/curves, shared/beacon.ts), inside workerd with the module
 * compiled ahead as the Worker imports it. Both must give the same answer on every input: the real
 * quicknet rounds, every round signed in the repository's vectors (the shared-table golden vectors
 * and the conformance suite), the Worker's own local beacon, and tampered rounds (every single-bit
 * flip of a real signature, wrong rounds, G2 points, non-canonical encodings, the point at infinity).
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { describe, expect, test } from 'vitest';
import {
  type BeaconChain,
  beaconSignatureCheckInUse,
  type BeaconSignatureCheck,
  nobleSignatureCheck,
  QUICKNET,
  useBeaconSignatureCheck,
  verifyBeacon,
} from '../../shared/beacon.ts';
import { beaconSecretKeyFromSeed, localBeacon, signRound } from '../../shared/beacon-local.ts';
import { fetchBeacon, VerifiedRounds } from '../../worker/beacon/beacon.ts';
import { mclSignatureCheck } from '../../worker/beacon/mcl.ts';
import { workerCheckInUse, workerSignatureCheck } from '../../worker/beacon/mcl-module.ts';
import mclWasm from '../../worker/beacon/mcl.wasm';
import sharedVectors from '../vectors/fairness-shared.json';
import { R1000, R657413 } from './beacon-vectors.ts';

type Served = { round: number; signature: string; randomness?: string };

/** The conformance suite's files, as text: every beacon round they hold is checked. */
const conformance = import.meta.glob<string>('../vectors/conformance/*.json', { eager: true, query: '?raw', import: 'default' });

/** Every `{ round, signature }` (with its randomness, when given) in a parsed vector file. */
function servedRounds(json: unknown, into: Map<string, Served>): void {
  if (Array.isArray(json)) for (const x of json) servedRounds(x, into);
  else if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    if (typeof o.round === 'number' && typeof o.signature === 'string' && /^[0-9a-f]{96}$/.test(o.signature)) {
      const served: Served = { round: o.round, signature: o.signature };
      if (typeof o.randomness === 'string') served.randomness = o.randomness;
      into.set(JSON.stringify(served), served);
    }
    for (const value of Object.values(o)) servedRounds(value, into);
  }
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g)!, (h) => parseInt(h, 16));

/** The answer of `verifyBeacon` with `check` in place: the round, or the error's code. */
function verdict(check: BeaconSignatureCheck, chain: BeaconChain, served: Served): unknown {
  useBeaconSignatureCheck(check);
  try {
    const r = verifyBeacon(chain, served);
    return r.ok ? r : { ok: false, code: r.error.code };
  } finally {
    useBeaconSignatureCheck(workerSignatureCheck); // the Worker's, as beacon.ts installs it
  }
}

const mcl = mclSignatureCheck(mclWasm);

/** mcl's and the reference's answers, which must be equal; the reference's. */
function agreed(chain: BeaconChain, served: Served): unknown {
  const reference = verdict(nobleSignatureCheck, chain, served);
  expect(verdict(mcl, chain, served), `${chain.hash.slice(0, 8)} round ${served.round} ${served.signature}`).toEqual(reference);
  return reference;
}

const vectorChain = sharedVectors.beacon.chain as BeaconChain;

describe('mcl in WebAssembly, as the Worker checks beacon rounds', () => {
  test('the Worker checks signatures with mcl, not the fallback', async () => {
    expect(beaconSignatureCheckInUse()).toBe(workerSignatureCheck);
    const relay = async () => Response.json(R657413);
    const got = await fetchBeacon({ baseUrl: 'https://relay.test', chain: QUICKNET }, R657413.round, { fetch: relay, cache: new VerifiedRounds() });
    expect(got).toEqual({ ok: true, value: R657413 });
    expect(workerCheckInUse()).toBe('mcl');
  });

  test("quicknet's real rounds verify with mcl, and not for other rounds, as with the reference", () => {
    for (const real of [R1000, R657413]) {
      expect(agreed(QUICKNET, real)).toEqual({ ok: true, value: real });
      expect(agreed(QUICKNET, { round: real.round, signature: real.signature })).toEqual({ ok: true, value: real });
      for (const round of [real.round - 1, real.round + 1]) {
        expect(agreed(QUICKNET, { round, signature: real.signature })).toEqual({ ok: false, code: 'bad_beacon_signature' });
      }
    }
    expect(agreed(QUICKNET, { round: R1000.round, signature: R657413.signature })).toEqual({ ok: false, code: 'bad_beacon_signature' });
    expect(agreed(QUICKNET, { ...R1000, randomness: R657413.randomness })).toEqual({ ok: false, code: 'bad_beacon_randomness' });
  });

  test("every beacon round of the repository's vectors gets the same answer, under its chain and under quicknet's", () => {
    const rounds = new Map<string, Served>();
    servedRounds(sharedVectors, rounds);
    for (const text of Object.values(conformance)) {
      try {
        servedRounds(JSON.parse(text), rounds);
      } catch {
        /* a case that is not JSON on purpose */
      }
    }
    expect(rounds.size).toBeGreaterThan(20);
    const valid = (chain: BeaconChain) => [...rounds.values()].filter((served) => (agreed(chain, served) as { ok: boolean }).ok).length;
    expect(valid(vectorChain)).toBeGreaterThan(10); // the golden vectors' chain signed most of them
    expect(valid(QUICKNET)).toBeGreaterThan(0); // and the suite has real quicknet rounds too
  });

  test("the Worker's local beacon chain: its rounds, and one chain's round under the other's key", () => {
    const made = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(9)), { periodSeconds: 3, genesisTime: QUICKNET.genesisTime });
    if (!made.ok) throw new Error(made.error.message);
    const local = made.value;
    for (const round of [1, 2, 1000, 657413]) {
      const served = signRound(local, round);
      expect(agreed(local.chain, served)).toEqual({ ok: true, value: served });
      expect(agreed(local.chain, { ...served, round: round + 1 })).toEqual({ ok: false, code: 'bad_beacon_signature' });
      expect(agreed(QUICKNET, served)).toEqual({ ok: false, code: 'bad_beacon_signature' });
    }
    expect(agreed(local.chain, R1000)).toEqual({ ok: false, code: 'bad_beacon_signature' });
    expect(agreed(QUICKNET, R1000)).toEqual({ ok: true, value: R1000 }); // quicknet's lines are still right after another key's
  });

  test('every single-bit flip of a real signature is refused, with the same code', () => {
    const bytes = unhex(R1000.signature);
    const codes = new Map<string, number>();
    let outsideSubgroup = 0;
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = bytes.slice();
      flipped[bit >> 3]! ^= 0x80 >> (bit & 7);
      const served = { round: R1000.round, signature: hex(flipped) };
      const code = (agreed(QUICKNET, served) as { code: string }).code;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      const reference = nobleSignatureCheck(flipped, new Uint8Array(32), QUICKNET.publicKey);
      if (!reference.point && /subgroup/.test(reference.reason)) outsideSubgroup++;
    }
    expect([...codes.keys()].sort()).toEqual(['bad_beacon_encoding', 'bad_beacon_signature']);
    expect(codes.get('bad_beacon_signature')).toBeGreaterThan(0); // e.g. the sign bit: the negated point
    expect(outsideSubgroup).toBeGreaterThan(0); // points of the curve outside the prime-order subgroup among them
  });

  test('G2 points, non-canonical encodings and the point at infinity get the same code', () => {
    const g1 = bls12_381.G1.Point.BASE.toBytes(true);
    const g2 = bls12_381.G2.Point.BASE.toBytes(true);
    const infinity = new Uint8Array(48);
    infinity[0] = 0xc0;
    const cases: Array<[string, string, string]> = [
      ["quicknet's public key (a G2 point)", QUICKNET.publicKey, 'bad_beacon_encoding'],
      ['the G2 generator', hex(g2), 'bad_beacon_encoding'],
      ['the first half of a G2 point', hex(g2.slice(0, 48)), 'bad_beacon_encoding'],
      ['the first half of the public key', QUICKNET.publicKey.slice(0, 96), 'bad_beacon_encoding'],
      ['the G1 generator (a point, not the signature)', hex(g1), 'bad_beacon_signature'],
      ['the point at infinity', hex(infinity), 'bad_beacon_signature'],
      ['infinity with the sign bit', `e0${'00'.repeat(47)}`, 'bad_beacon_encoding'],
      ['infinity with a nonzero x', `c0${'00'.repeat(46)}01`, 'bad_beacon_encoding'],
      ['infinity with a high bit of x', `c080${'00'.repeat(46)}`, 'bad_beacon_encoding'],
      ['infinity without the compression flag', `40${'00'.repeat(47)}`, 'bad_beacon_encoding'],
      ['zeros', '00'.repeat(48), 'bad_beacon_encoding'],
      ['without the compression flag', hex(Uint8Array.of(unhex(R1000.signature)[0]! & 0x7f, ...unhex(R1000.signature).slice(1))), 'bad_beacon_encoding'],
      ['x = p (the field modulus)', hex(withFlags(bls12_381.fields.Fp.ORDER, 0x80)), 'bad_beacon_encoding'],
      ['x all ones', `9f${'ff'.repeat(47)}`, 'bad_beacon_encoding'],
      ['a randomness in upper case', '', 'bad_beacon_encoding'],
    ];
    for (const [about, signature, code] of cases) {
      const served = signature === '' ? { ...R1000, randomness: R1000.randomness.toUpperCase() } : { round: R1000.round, signature };
      expect(agreed(QUICKNET, served), about).toEqual({ ok: false, code });
    }
  });

  test('a point whose x is written plus p (not canonical) is refused, as its canonical form is accepted', () => {
    const made = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(3)), { periodSeconds: 3, genesisTime: QUICKNET.genesisTime });
    if (!made.ok) throw new Error(made.error.message);
    const { Fp } = bls12_381.fields;
    // A signed round whose x + p still fits in 381 bits (about one round in five).
    for (let round = 1; round < 200; round++) {
      const served = signRound(made.value, round);
      const bytes = unhex(served.signature);
      const flags = bytes[0]! & 0xe0;
      bytes[0]! &= 0x1f;
      const x = BigInt(`0x${hex(bytes)}`);
      if (x + Fp.ORDER >= 1n << 381n) continue;
      expect(agreed(made.value.chain, served)).toEqual({ ok: true, value: served });
      expect(agreed(made.value.chain, { round, signature: hex(withFlags(x + Fp.ORDER, flags)) })).toEqual({ ok: false, code: 'bad_beacon_encoding' });
      return;
    }
    throw new Error('no round with a small x in 200');
  });
});

/** x as 48 bytes big-endian, with the three flag bits of the first byte set to `flags`. */
function withFlags(x: bigint, flags: number): Uint8Array {
  const bytes = unhex(x.toString(16).padStart(96, '0'));
  bytes[0]! |= flags;
  return bytes;
}
