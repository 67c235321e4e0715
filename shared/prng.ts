/**
 * A small, fast, seeded pseudo-random generator for simulations and tests: xoshiro128** 1.0
 * (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c), 128 bits of state, 32-bit
 * outputs. It is NOT for dealing real rounds: those use the keyed stream of the fairness layer.
 *
 * `below(n)` draws uniform integers by rejection (Lemire's multiply-and-reject), never by a bare
 * modulo, so no value is favoured. For n ≤ 2^16 it takes 16 bits at a time: the low half of an
 * output, then its high half; a `nextUint32()` call in between discards nothing (the half waits).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { RandomBelow } from './shoe.ts';

const TWO_32 = 4294967296;
const HALF = 65536;

/**
 * One step of Lemire's method for 16 random bits `r` and a whole 1 ≤ n ≤ 2^16: the draw ⌊r·n / 2^16⌋,
 * or −1 when r must be rejected because r·n mod 2^16 < 2^16 mod n. Over all 2^16 values of r, every
 * draw 0..n−1 is then produced exactly ⌊2^16 / n⌋ times (the tests check it exhaustively).
 */
export function lemire16(r: number, n: number): number {
  const m = r * n; // < 2^32, exact
  const low = m & 0xffff;
  // `low < n` first: the modulo runs only for the rare r that may need rejecting.
  return low < n && low < (HALF - n) % n ? -1 : m >>> 16;
}

export class Xoshiro128 {
  /**
   * s[0..3]: the 128-bit state as four 32-bit words; s[4]: the unused high half of the last output
   * that `below` split, or −1. An Int32Array keeps all of it unboxed in V8.
   */
  readonly #s = new Int32Array(5);

  /** Starts from four 32-bit words of state; they must not all be zero. */
  constructor(state: readonly [number, number, number, number]) {
    this.#s.set(state.map((w) => w | 0));
    this.#s[4] = -1;
    if ((this.#s[0]! | this.#s[1]! | this.#s[2]! | this.#s[3]!) === 0) throw new RangeError('xoshiro128** state must not be all zero');
  }

  /** The next 32-bit output, as an unsigned integer 0 .. 2^32 − 1. */
  nextUint32(): number {
    const s = this.#s;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /** 16 random bits: the low half of a fresh output, then its high half on the next call. */
  #next16(): number {
    const s = this.#s;
    const spare = s[4]!;
    if (spare >= 0) {
      s[4] = -1;
      return spare;
    }
    const x = this.nextUint32();
    s[4] = x >>> 16;
    return x & 0xffff;
  }

  /**
   * A uniform integer in [0, n), for a whole n from 1 to 2^32, by Lemire's multiply-and-reject:
   * r·n / 2^b for b random bits r, after rejecting the r whose low word r·n mod 2^b falls below
   * 2^b mod n (those would make some results one count more likely). For n ≤ 2^16 (every shoe)
   * r is 16 bits, so one 32-bit output serves two draws. Above 2^16 (never in a hot loop): a
   * whole output, the incomplete last block of n below 2^32 rejected, then the remainder.
   */
  below(n: number): number {
    if (n <= HALF && n >= 1 && (n | 0) === n) {
      let draw = lemire16(this.#next16(), n);
      while (draw < 0) draw = lemire16(this.#next16(), n);
      return draw;
    }
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`below(n) needs a whole n from 1 to 2^32, got ${n}`);
    const limit = TWO_32 - (TWO_32 % n); // a whole number of blocks of n
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return x % n;
  }

  /** A `RandomBelow` bound to this generator, for shoe.ts (`newShoe`, `shuffleCards`). */
  get randomBelow(): RandomBelow {
    return (n) => this.below(n);
  }
}

/**
 * A generator from a text seed: its state is the first 16 bytes of SHA-256(UTF-8 of the seed), read
 * as four little-endian 32-bit words. Numbers are seeded by their decimal text (`7` and `"7"` agree),
 * so a seed printed by the CLI replays the same run anywhere.
 */
export function seededPrng(seed: string | number): Xoshiro128 {
  const digest = sha256(new TextEncoder().encode(String(seed)));
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  const words = [0, 1, 2, 3].map((i) => view.getUint32(i * 4, true)) as [number, number, number, number];
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1; // unreachable in practice; keeps the state legal
  return new Xoshiro128(words);
}
