/**
 * Statistics over many derived shoes (one deck, 10,000 fixed seeds, so the result is deterministic):
 *  - card at each position: a 52 × 52 contingency table, chi-square with 51² degrees of freedom;
 *  - pairs of positions: for every neighbouring pair (p, p+1) the step (card[p+1] − card[p]) mod 52,
 *    uniform over 1…51 for a uniform permutation; chi-square with 51 × 50 degrees of freedom.
 * Our derivation must pass both; three classic broken shuffles, fed from the same keyed stream,
 * must fail at least one: modulo on bytes, the "swap with any index" shuffle, and a mere rotation.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, test } from 'vitest';
import {
  bytesToHex,
  type Card,
  deriveFair1Stack,
  orderedDecks,
  serverSeedBytes,
  type Fair1ShoeParams,
  fair1ShuffleStream,
  uniformBelow,
  utf8Bytes,
  type WordStream,
} from '../../shared/index.ts';

const SHOES = 10_000;
const ONE_DECK: Fair1ShoeParams = { decks: 1, burn: true, cutCardFromEnd: 14, mode: 'shoe', algorithm: 'pb-fair-1' };
const seeds = Array.from({ length: SHOES }, (_, i) => bytesToHex(sha256(utf8Bytes(`pb-fair-1 statistics ${i}`))));
const streamOf = (i: number): WordStream => fair1ShuffleStream(serverSeedBytes(seeds[i]!), 'statistics', 0);

/** z-score of a chi-square statistic (Wilson–Hilferty): about N(0,1) when the hypothesis holds. */
function chiSquareZ(x: number, df: number): number {
  return (Math.cbrt(x / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
}

function statistics(shuffle: (i: number) => Card[]): { positions: number; pairs: number } {
  const atPosition = new Float64Array(52 * 52);
  const steps = new Float64Array(51 * 51);
  for (let i = 0; i < SHOES; i++) {
    const s = shuffle(i);
    for (let p = 0; p < 52; p++) atPosition[p * 52 + s[p]!]!++;
    for (let p = 0; p < 51; p++) steps[p * 51 + ((s[p + 1]! - s[p]! + 52) % 52) - 1]!++;
  }
  const chi = (counts: Float64Array, expected: number) => counts.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0);
  return { positions: chiSquareZ(chi(atPosition, SHOES / 52), 51 * 51), pairs: chiSquareZ(chi(steps, SHOES / 51), 51 * 50) };
}

/** z above this: p < 1e-4 one-sided. Broken shuffles must exceed 6 (p < 1e-9). */
const PASS = 3.72;
const FAIL = 6;

describe('statistical uniformity of the derived shoe', () => {
  test("our derivation (shuffle, then the player's cut) passes both tests", () => {
    const z = statistics((i) => deriveFair1Stack(ONE_DECK, seeds[i]!, 'statistics', 1 + (i % 51)));
    expect(z.positions).toBeLessThan(PASS);
    expect(z.pairs).toBeLessThan(PASS);
  });

  test('Fisher–Yates with modulo on bytes (byte % n) fails card-at-position', () => {
    const z = statistics((i) => {
      const stream = streamOf(i);
      let word = 0;
      let left = 0;
      const byte = () => {
        if (left === 0) [word, left] = [stream.nextWord(), 4];
        return (word >>> (8 * --left)) & 0xff;
      };
      const cards = orderedDecks(1);
      for (let a = 51; a > 0; a--) swap(cards, a, byte() % (a + 1));
      return cards;
    });
    expect(z.positions).toBeGreaterThan(FAIL);
  });

  test('the naive shuffle (swap each card with any index) fails card-at-position', () => {
    const z = statistics((i) => {
      const stream = streamOf(i);
      const cards = orderedDecks(1);
      for (let a = 0; a < 52; a++) swap(cards, a, uniformBelow(stream, 52));
      return cards;
    });
    expect(z.positions).toBeGreaterThan(FAIL);
  });

  test('a random rotation (a cut without a shuffle) fails pairs of positions', () => {
    const z = statistics((i) => {
      const k = uniformBelow(streamOf(i), 52);
      const cards = orderedDecks(1);
      return cards.slice(k).concat(cards.slice(0, k));
    });
    expect(z.pairs).toBeGreaterThan(FAIL);
  });
});

function swap(cards: Card[], a: number, b: number): void {
  const t = cards[a]!;
  cards[a] = cards[b]!;
  cards[b] = t;
}
