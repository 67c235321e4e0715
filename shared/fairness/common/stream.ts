/**
 * Uniform integers drawn from a stream of 32-bit words by rejection sampling (FAIRNESS.md §1,
 * point 3): the same in every protocol version; each version defines its own keyed stream.
 */
import type { RandomBelow } from '../../shoe.ts';

const TWO_32 = 2 ** 32;

/** A source of uniformly distributed unsigned 32-bit words. */
export interface WordStream {
  nextWord(): number;
  /** Blocks (HMAC outputs) computed so far. */
  readonly blocks: number;
}

/**
 * A uniform integer in [0, n) for 1 ≤ n ≤ 2³², with no modulo bias: a word w is accepted only when
 * w < 2³² − (2³² mod n), the largest multiple of n that fits, and then w mod n is returned;
 * otherwise w is discarded and the next word is read.
 */
export function uniformBelow(stream: WordStream, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`uniformBelow needs 1 ≤ n ≤ 2^32, got ${n}`);
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const w = stream.nextWord();
    if (w < limit) return w % n;
  }
}

/** The engine's `RandomBelow` reading from a word stream. */
export function randomBelowFrom(stream: WordStream): RandomBelow {
  return (n) => uniformBelow(stream, n);
}
