import { describe, expect, test } from 'vitest';
import { type Card } from '../../shared/cards.ts';
import { countOutcomes, countOutcomesOf, exactOdds, type OutcomeCounts } from '../../shared/odds.ts';
import { OUTCOMES, playRound } from '../../shared/round.ts';

/*
 * Published full combinatorial analyses (ordered six-card deals, without replacement):
 * - 8 decks: Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/basics/), quoted with the
 *   total P(416, 6) in the WizardOfVegas forum thread "Baccarat Probability Question" (Jan 2014),
 *   and in the "Probabilities in 8-deck Baccarat" table of casinoexploit.com/baccarat.html.
 * - 6 decks, and the 4-deck Banker and Player counts: casinoexploit.com/baccarat.html, tables
 *   "Probabilities in 6-deck Baccarat" and "… 4-deck …".
 * - 1, 2, 4 and 8 decks, probabilities to four decimals of a percent: Yui-Bin Chen, "Casino Games –
 *   Mini Baccarat", vegastrip.com/game_baccarat.html ("Expected Gain/Loss" table). Its 6-deck
 *   Player figure (44.6276%) is 3e-6 off the exact 6-deck counts above (44.6279%, which Wizard of
 *   Odds also gives), so 6 decks is tested against the counts only.
 * - House edges (8 decks: Banker 1.0579%, Player 1.2351%, Tie 14.3596%; 6 decks: 1.0558%,
 *   1.2374%, 14.4382%): Wizard of Odds, "Baccarat", house edge by number of decks.
 */
const PUBLISHED: Record<number, Partial<Record<'banker' | 'player' | 'tie' | 'total', bigint>>> = {
  8: { banker: 2_292_252_566_437_888n, player: 2_230_518_282_592_256n, tie: 475_627_426_473_216n, total: 4_998_398_275_503_360n },
  6: { banker: 403_095_751_234_560n, player: 392_220_492_728_832n, tie: 83_552_962_932_288n },
  4: { banker: 34_543_624_867_840n, player: 33_608_344_225_792n },
};

const PUBLISHED_PROBABILITIES: Record<number, { banker: number; player: number; tie: number }> = {
  8: { banker: 0.458597, player: 0.446247, tie: 0.095156 },
  4: { banker: 0.458761, player: 0.44634, tie: 0.094898 },
  2: { banker: 0.459073, player: 0.446508, tie: 0.094419 },
  1: { banker: 0.459624, player: 0.44676, tie: 0.093615 },
};

const PUBLISHED_EDGES: Record<number, { banker: number; player: number; tie: number }> = {
  8: { banker: 0.010579, player: 0.012351, tie: 0.143596 },
  6: { banker: 0.010558, player: 0.012374, tie: 0.144382 },
};

function counts(decks: number): OutcomeCounts {
  const result = countOutcomes(decks);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function falling(n: number, k: number): bigint {
  let p = 1n;
  for (let i = 0; i < k; i++) p *= BigInt(n - i);
  return p;
}

describe('exact odds equal the published analyses', () => {
  test.each([8, 6, 4])('%i decks: the published counts', (decks) => {
    const c = counts(decks);
    for (const [key, value] of Object.entries(PUBLISHED[decks]!)) expect(c[key as keyof OutcomeCounts]).toBe(value);
  });

  test.each([8, 4, 2, 1])('%i decks: the published probabilities (±0.000001)', (decks) => {
    const odds = exactOdds(decks);
    expect(odds.ok).toBe(true);
    if (!odds.ok) return;
    for (const outcome of OUTCOMES) expect(Math.abs(odds.value.probability[outcome] - PUBLISHED_PROBABILITIES[decks]![outcome])).toBeLessThan(1.000001e-6);
  });

  test.each([8, 6])('%i decks: the published house edges (±0.0000005)', (decks) => {
    const odds = exactOdds(decks);
    if (!odds.ok) throw new Error('no odds');
    for (const box of ['banker', 'player', 'tie'] as const) expect(Math.abs(odds.value.houseEdge[box] - PUBLISHED_EDGES[decks]![box])).toBeLessThan(5.1e-7);
  });

  test('every deck count 1–8: the three counts sum to P(52·decks, 6)', () => {
    for (let decks = 1; decks <= 8; decks++) {
      const c = counts(decks);
      expect(c.total).toBe(falling(52 * decks, 6));
      expect(c.banker + c.player + c.tie).toBe(c.total);
    }
  });
});

describe('house edge, exactly', () => {
  test('from the counts and the payouts, with Player and Banker pushing on a tie', () => {
    const odds = exactOdds(8);
    if (!odds.ok) throw new Error('no odds');
    const { banker: B, player: P, tie: T, total: N } = odds.value;
    const same = (f: { numerator: bigint; denominator: bigint }, num: bigint, den: bigint) => expect(f.numerator * den).toBe(num * f.denominator);
    same(odds.value.houseEdgeExact.player, B - P, N);
    same(odds.value.houseEdgeExact.banker, 20n * P - 19n * B, 20n * N);
    same(odds.value.houseEdgeExact.tie, B + P - 8n * T, N);
  });
});

/**
 * An independent count for one deck: every ordered deal by RANK (13 ranks, four of each), each
 * round resolved by `playRound` on real cards; cards the round does not use are counted as the
 * number of ways to fill their positions. No point classes, no symmetry, no tables.
 */
function bruteForceOneDeck(): Record<'player' | 'banker' | 'tie', bigint> {
  const left = new Array<number>(13).fill(4);
  const cards: Card[] = [0, 0, 0, 0, 0, 0];
  const tally = { player: 0, banker: 0, tie: 0 };
  const N = 52;
  const fill = (placed: number) => {
    let ways = 1;
    for (let i = placed; i < 6; i++) ways *= N - i;
    return ways;
  };
  const walk = (depth: number, weight: number) => {
    if (depth >= 4) {
      // Probe: how many cards does the round use given what is placed? (playRound reads only those.)
      const probe = playRound(cards);
      if (probe.cardsUsed <= depth) {
        tally[probe.outcome] += weight * fill(depth);
        return;
      }
    }
    for (let rank = 0; rank < 13; rank++) {
      const n = left[rank]!;
      if (n === 0) continue;
      left[rank] = n - 1;
      cards[depth] = rank; // the spade of that rank: suits do not matter to the rules
      walk(depth + 1, weight * n);
      left[rank] = n;
    }
    cards[depth] = 0;
  };
  walk(0, 1);
  // Exact: one deck's P(52, 6) ≈ 1.5e10 is far below 2^53.
  return { player: BigInt(tally.player), banker: BigInt(tally.banker), tie: BigInt(tally.tie) };
}

describe('an independent brute force agrees', { timeout: 30_000 }, () => {
  test('one deck, by rank, through playRound', () => {
    const c = counts(1);
    expect(bruteForceOneDeck()).toEqual({ player: c.player, banker: c.banker, tie: c.tie });
  });
});

describe('errors and the general composition', () => {
  test('bad_decks', () => {
    for (const decks of [0, 9, 1.5, Number.NaN]) {
      const result = countOutcomes(decks);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('bad_decks');
      expect(exactOdds(decks).ok).toBe(false);
    }
  });

  test('bad_composition', () => {
    for (const bad of [
      [1, 2, 3],
      [-1, 4, 4, 4, 4, 4, 4, 4, 4, 4],
      [16, 4, 4, 4, 4, 4, 4, 4, 4, 4.5],
      [5, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      [160, 40, 40, 40, 40, 40, 40, 40, 40, 40],
    ]) {
      const result = countOutcomesOf(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('bad_composition');
    }
  });

  test('a fresh 8-deck composition gives the 8-deck counts; a depleted one sums to its own P(n, 6)', () => {
    const fresh = countOutcomesOf([128, 32, 32, 32, 32, 32, 32, 32, 32, 32]);
    expect(fresh.ok && fresh.value).toEqual(counts(8));
    const depleted = countOutcomesOf([100, 30, 2, 31, 0, 20, 32, 9, 1, 6]);
    expect(depleted.ok).toBe(true);
    if (depleted.ok) expect(depleted.value.banker + depleted.value.player + depleted.value.tie).toBe(falling(231, 6));
  });

  test('exactOdds is cached: the same object twice', () => {
    const a = exactOdds(7);
    const b = exactOdds(7);
    expect(a.ok && b.ok && a.value === b.value).toBe(true);
  });
});
