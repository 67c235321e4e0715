/**
 * pb-fair-2 statistics (as fairness-stats.test.ts for pb-fair-1): one deck, 10,000 fixed seeds,
 * burn off, every card dealt out of the shoe with the per-round re-cut (4, 5, 6, 4, … cards per
 * round, a fresh secret and acceptance hash per round). The order in which cards leave the shoe
 * must pass card-at-position and neighbouring-pair chi-square tests; biased variants must fail.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, test } from 'vitest';
import { bytesToHex, type Card, orderedDecks, randomBelowFrom, recutOffset, shoeStream, shuffleCards, utf8Bytes } from '../../shared/index.ts';

const SHOES = 10_000;
const seeds = Array.from({ length: SHOES }, (_, i) => bytesToHex(sha256(utf8Bytes(`pb-fair-2 statistics ${i}`))));
const hex = (text: string) => bytesToHex(sha256(utf8Bytes(text)));

function chiSquareZ(x: number, df: number): number {
  return (Math.cbrt(x / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
}

function statistics(sequence: (i: number) => Card[]): { positions: number; pairs: number } {
  const atPosition = new Float64Array(52 * 52);
  const steps = new Float64Array(51 * 51);
  for (let i = 0; i < SHOES; i++) {
    const s = sequence(i);
    for (let p = 0; p < 52; p++) atPosition[p * 52 + s[p]!]!++;
    for (let p = 0; p < 51; p++) steps[p * 51 + ((s[p + 1]! - s[p]! + 52) % 52) - 1]!++;
  }
  const chi = (counts: Float64Array, expected: number) => counts.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0);
  return { positions: chiSquareZ(chi(atPosition, SHOES / 52), 51 * 51), pairs: chiSquareZ(chi(steps, SHOES / 51), 51 * 50) };
}

/** The order cards leave the shoe: before each round the remainder is rotated by the round's offset. */
function dealtOrder(stack: readonly Card[], i: number): Card[] {
  let remaining = stack.slice();
  const out: Card[] = [];
  for (let r = 0; remaining.length > 0; r++) {
    const o = recutOffset(seeds[i]!, hex(`secret ${i}/${r}`), hex(`acceptance ${i}/${r}`), remaining.length);
    remaining = remaining.slice(o).concat(remaining.slice(0, o));
    const k = Math.min(4 + (r % 3), remaining.length);
    out.push(...remaining.slice(0, k));
    remaining = remaining.slice(k);
  }
  return out;
}

const PASS = 3.72;
const FAIL = 6;

describe('pb-fair-2: statistics of the shoe with the per-round re-cut', { timeout: 120_000 }, () => {
  test('the shuffle alone, and the shuffle plus per-round re-cuts, pass both tests', () => {
    // The shuffle is tested on its own too: a uniform rotation would hide a biased shuffle's positions.
    const shuffled = (i: number) => shuffleCards(orderedDecks(1), randomBelowFrom(shoeStream(seeds[i]!, 'statistics')));
    const alone = statistics(shuffled);
    expect(alone.positions).toBeLessThan(PASS);
    expect(alone.pairs).toBeLessThan(PASS);
    const z = statistics((i) => dealtOrder(shuffled(i), i));
    expect(z.positions).toBeLessThan(PASS);
    expect(z.pairs).toBeLessThan(PASS);
  });

  test('re-cuts without the shuffle (a biased shoe) fail the pair test', () => {
    const z = statistics((i) => dealtOrder(orderedDecks(1), i));
    expect(z.pairs).toBeGreaterThan(FAIL);
  });

  test('an operator that picks the re-cut after seeing the cards (what the lock prevents) fails card-at-position', () => {
    // It redraws the offset (up to 3 times) while the round would open with an 8 or a 9.
    const z = statistics((i) => {
      let remaining = shuffleCards(orderedDecks(1), randomBelowFrom(shoeStream(seeds[i]!, 'statistics')));
      const out: Card[] = [];
      for (let r = 0; remaining.length > 0; r++) {
        let o = 0;
        for (let t = 0; t < 3; t++) {
          o = recutOffset(seeds[i]!, hex(`secret ${i}/${r}/${t}`), hex(`acceptance ${i}/${r}`), remaining.length);
          if (remaining[o]! % 13 !== 7 && remaining[o]! % 13 !== 8) break;
        }
        remaining = remaining.slice(o).concat(remaining.slice(0, o));
        const k = Math.min(4 + (r % 3), remaining.length);
        out.push(...remaining.slice(0, k));
        remaining = remaining.slice(k);
      }
      return out;
    });
    expect(z.positions).toBeGreaterThan(FAIL);
  });
});
