/**
 * pb-shared-1 statistics (light): the order in which cards leave a 1-deck shoe, dealt round by
 * round by dealSharedRound with a fresh beacon randomness and close hash per round, passes
 * card-at-position and neighbouring-pair chi-square tests — even when the start order is the
 * worst an operator could pick (the ordered deck: a grinding seat chose it). pb-fair-2's rotation
 * from that same start fails: why part III shuffles the remaining cards (FAIRNESS.md §C5).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, test } from 'vitest';
import { dealSharedRound, type SharedParams, type SharedShoeState } from '../../shared/fairness/pb-shared-1/index.ts';
import { bytesToHex, type Card, dealAcceptedRound, type AcceptedDeal, orderedDecks, parseCard, receiptCards, utf8Bytes } from '../../shared/index.ts';

const SHOES = 4_000;
/** Cards observed per shoe: every 1-deck shoe deals at least this many before fewer than 6 remain. */
const SEEN = 40;
const hex = (text: string) => bytesToHex(sha256(utf8Bytes(text)));
const PARAMS = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 1, burn: false, cutCardFromEnd: 6, beaconDeadlineSeconds: 60 } as const satisfies SharedParams;

function chiSquareZ(x: number, df: number): number {
  return (Math.cbrt(x / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
}

/** z-scores of card-at-position (first SEEN cards) and of the step between neighbouring cards. */
function statistics(sequence: (i: number) => Card[]): { positions: number; pairs: number } {
  const atPosition = new Float64Array(SEEN * 52);
  const steps = new Float64Array((SEEN - 1) * 51);
  for (let i = 0; i < SHOES; i++) {
    const s = sequence(i);
    for (let p = 0; p < SEEN; p++) atPosition[p * 52 + s[p]!]!++;
    for (let p = 0; p < SEEN - 1; p++) steps[p * 51 + ((s[p + 1]! - s[p]! + 52) % 52) - 1]!++;
  }
  const chi = (counts: Float64Array, expected: number) => counts.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0);
  return { positions: chiSquareZ(chi(atPosition, SHOES / 52), SEEN * 51), pairs: chiSquareZ(chi(steps, SHOES / 51), (SEEN - 1) * 50) };
}

type Deal = (state: SharedShoeState, seed: string, beacon: string, close: string) => AcceptedDeal;

/** Cards in the order they leave the shoe, round after round, from the ordered deck. */
function dealtOrder(i: number, deal: Deal): Card[] {
  const seed = hex(`pb-shared-1 statistics ${i}`);
  let state: SharedShoeState = { remaining: orderedDecks(1), dealt: 0, burned: 0, cutCardAt: 52 - PARAMS.cutCardFromEnd, rounds: 0 };
  const out: Card[] = [];
  for (let r = 0; out.length < SEEN; r++) {
    const d = deal(state, seed, hex(`beacon ${i}/${r}`), hex(`close ${i}/${r}`));
    out.push(
      ...receiptCards(d.round)
        .sort((a, b) => a.position - b.position)
        .map((c) => parseCard(c.code)!),
    );
    state = d.state;
  }
  return out;
}

const PASS = 3.72;
const FAIL = 6;

describe('pb-shared-1: statistics of a shoe dealt with beacon-driven shuffles', { timeout: 120_000 }, () => {
  test('from the ordered deck, every round a shuffle of what is left: both tests pass', () => {
    const z = statistics((i) => dealtOrder(i, (s, seed, b, c) => dealSharedRound(PARAMS, s, seed, 1, b, c)));
    expect(z.positions).toBeLessThan(PASS);
    expect(z.pairs).toBeLessThan(PASS);
  });

  test("from the ordered deck, pb-fair-2's rotation instead: the pair test fails", () => {
    const v2 = { algorithm: 'pb-fair-2', mode: 'shoe', decks: 1, burn: false, cutCardFromEnd: 6, voidAfterSeconds: 60 } as const;
    const z = statistics((i) => dealtOrder(i, (s, seed, b, c) => dealAcceptedRound(v2, s, seed, 1, b, c)));
    expect(z.pairs).toBeGreaterThan(FAIL);
  });
});
