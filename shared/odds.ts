/**
 * Exact combinatorial odds of Punto Banco (the "full combinatorial analysis" of the literature):
 * every ordered deal of six cards from a fresh shoe, without replacement, counted once. A round that
 * uses four or five cards stands for every way the unused positions can be filled, so the counts
 * sum to P(n, 6) = n(n−1)…(n−5) for an n-card shoe (8 decks: 4,998,398,275,503,360).
 *
 * Only point values matter to the rules, so the shoe is ten point classes with multiplicities (per
 * deck: sixteen 0s — tens and faces — and four of each 1–9). The Player's two cards and the Banker's
 * two cards are each an unordered pair of classes (55 × 55 cases, each weighted by its orderings),
 * then the Player's third card by class and the Banker's by counting (see `enumerate`). Every draw
 * decision and outcome comes from round.ts through rule-tables.ts, and the win/push/lose of each
 * bet from settle.ts: no rule is written here.
 */
import { CARD_POINTS, CARDS_PER_DECK, MAX_DECKS, MIN_DECKS } from './cards.ts';
import { type EngineError, fail, ok, type Result } from './errors.ts';
import { type Outcome, OUTCOMES } from './round.ts';
import { BANKER_COLUMNS, BANKER_DRAWS, NATURAL, OUTCOME, PLAYER_DRAWS } from './rule-tables.ts';
import { betResult, PAYOUTS } from './settle.ts';
import { type Box, BOXES } from './table.ts';

/** Ordered six-card deals won by each side, out of `total`. */
export interface OutcomeCounts {
  player: bigint;
  banker: bigint;
  tie: bigint;
  /** P(n, 6): every ordered six-card deal from the n cards. */
  total: bigint;
}

/** An exact fraction (always reduced; the denominator is positive). */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

export interface Odds extends OutcomeCounts {
  decks: number;
  /** Probability of each outcome: count / total. */
  probability: Record<Outcome, number>;
  /**
   * House edge of each bet per unit staked, with the payouts of settle.ts (Player 1:1, Banker 19:20,
   * Tie 8:1; Player and Banker bets push on a tie). Positive means the house wins.
   */
  houseEdge: Record<Box, number>;
  /** The same house edges as exact fractions. */
  houseEdgeExact: Record<Box, Fraction>;
}

export type OddsErrorCode = 'bad_decks' | 'bad_composition';

/** Point classes: a card's point value 0..9 is its class. */
const CLASSES = 10;

/** Cards of each point value in one deck, counted from cards.ts (16 zeros, 4 of each 1..9). */
const CLASS_PER_DECK: readonly number[] = (() => {
  const perDeck = new Array<number>(CLASSES).fill(0);
  for (let card = 0; card < CARDS_PER_DECK; card++) perDeck[CARD_POINTS[card]!]!++;
  return perDeck;
})();

/** P(n, k) = n(n−1)…(n−k+1), exact. */
function falling(n: number, k: number): bigint {
  let product = 1n;
  for (let i = 0; i < k; i++) product *= BigInt(n - i);
  return product;
}

function validDecks(decks: number): EngineError<'bad_decks'> | null {
  if (Number.isInteger(decks) && decks >= MIN_DECKS && decks <= MAX_DECKS) return null;
  return { code: 'bad_decks', message: `odds are for ${MIN_DECKS} to ${MAX_DECKS} decks, got ${String(decks)}` };
}

/**
 * Counts the ordered six-card deals won by Player, Banker and Tie for a shoe of `decks` fresh decks.
 * Computes every time (see `exactOdds` for the cached, complete answer).
 */
export function countOutcomes(decks: number): Result<OutcomeCounts, EngineError<OddsErrorCode>> {
  const bad = validDecks(decks);
  if (bad) return { ok: false, error: bad };
  return countOutcomesOf(CLASS_PER_DECK.map((perDeck) => perDeck * decks));
}

/**
 * Counts the ordered six-card deals won by each side for any shoe composition: `pointCounts[p]` is
 * the number of cards worth p points (index 0: tens and faces). Useful for the odds of what is left
 * in a shoe. The shoe must hold 6 to 416 cards (the bound that keeps the arithmetic exact, below).
 */
export function countOutcomesOf(pointCounts: readonly number[]): Result<OutcomeCounts, EngineError<OddsErrorCode>> {
  if (pointCounts.length !== CLASSES || !pointCounts.every((k) => Number.isInteger(k) && k >= 0)) {
    return fail('bad_composition', `a composition is ${CLASSES} whole, non-negative card counts, one per point value 0–9`);
  }
  const n = pointCounts.reduce((a, b) => a + b, 0);
  const total = falling(n, 6);
  if (n < 6 || total > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail('bad_composition', `exact odds need 6 to ${MAX_DECKS * CARDS_PER_DECK} cards, got ${n}`);
  }
  const acc = new Float64Array(OUTCOMES.length);
  enumerate(Float64Array.from(pointCounts), n, acc);
  const counts = { player: 0n, banker: 0n, tie: 0n, total };
  OUTCOMES.forEach((outcome, i) => (counts[outcome] = BigInt(acc[i]!)));
  return ok(counts);
}

/*
 * Why plain Numbers are exact here: every product below counts a set of ordered card sequences —
 * 4-card prefixes (`ways`), 5-card prefixes (`ways * c[p3]`) or whole six-card deals (times the ways
 * to fill the unused positions) — so it is at most P(n, 6); every accumulator sums disjoint such
 * sets, so it is at most P(n, 6) too. `countOutcomesOf` refuses shoes with P(n, 6) > 2^53 − 1
 * (8 decks: P(416, 6) ≈ 5.0e15 < 2^53 ≈ 9.0e15), and a double holds every integer up to 2^53, so
 * no product or sum ever rounds. The BigInt conversion at the end is then exact, and the tests
 * check that the three counts sum to P(n, 6) computed in BigInt.
 *
 * The Banker's third card is not looped over. For each final Player total and Banker two-card
 * total, `third` holds how many cards of the FULL shoe would give each outcome if drawn (from the
 * OUTCOME table); the cards already dealt are then taken back out one by one. That makes the
 * deepest level a handful of steps instead of ten, which matters most before the JIT warms up.
 */
function enumerate(c: Float64Array, n: number, acc: Float64Array): void {
  const third = thirdCardOutcomes(c);
  const fillTwo = (n - 4) * (n - 5); // the round used 4 cards: positions 5 and 6 are free
  const fillOne = n - 5; // the round used 5 cards: position 6 is free
  for (let p1 = 0; p1 < CLASSES; p1++) {
    const w1 = c[p1]!;
    if (w1 === 0) continue;
    c[p1] = w1 - 1;
    for (let p2 = p1; p2 < CLASSES; p2++) {
      const w2 = w1 * c[p2]!;
      if (w2 === 0) continue;
      c[p2]!--;
      const pt = (p1 + p2) % 10;
      // {p1, p2} in either order: the count of a multiset of classes does not depend on the order drawn.
      const playerOrders = p1 === p2 ? 1 : 2;
      for (let b1 = 0; b1 < CLASSES; b1++) {
        const w3 = w2 * c[b1]!;
        if (w3 === 0) continue;
        c[b1]!--;
        for (let b2 = b1; b2 < CLASSES; b2++) {
          const w4 = w3 * c[b2]!;
          if (w4 === 0) continue;
          const ways = w4 * playerOrders * (b1 === b2 ? 1 : 2);
          const bt = (b1 + b2) % 10;
          const bankerRow = bt * BANKER_COLUMNS;
          if (NATURAL[pt]! | NATURAL[bt]!) {
            acc[OUTCOME[pt * 10 + bt]!]! += ways * fillTwo;
          } else if (PLAYER_DRAWS[pt] === 0) {
            if (BANKER_DRAWS[bankerRow] === 0) acc[OUTCOME[pt * 10 + bt]!]! += ways * fillTwo;
            else addBankerThird(acc, third, pt, bt, ways * fillOne, p1, p2, b1, b2, -1);
          } else {
            c[b2]!--;
            for (let p3 = 0; p3 < CLASSES; p3++) {
              const w5 = ways * c[p3]!;
              if (w5 === 0) continue;
              const final = (pt + p3) % 10;
              if (BANKER_DRAWS[bankerRow + 1 + p3] === 0) acc[OUTCOME[final * 10 + bt]!]! += w5 * fillOne;
              else addBankerThird(acc, third, final, bt, w5, p1, p2, b1, b2, p3);
            }
            c[b2]!++;
          }
        }
        c[b1]!++;
      }
      c[p2]!++;
    }
    c[p1] = w1;
  }
}

/**
 * third[(playerTotal * 10 + bankerTotal) * 3 + outcome]: how many cards of the composition `c`,
 * drawn as the Banker's third card on `bankerTotal`, end the round in `outcome` against a final
 * `playerTotal`.
 */
function thirdCardOutcomes(c: Float64Array): Float64Array {
  const third = new Float64Array(100 * OUTCOMES.length);
  for (let pt = 0; pt < 10; pt++) {
    for (let bt = 0; bt < 10; bt++) {
      for (let b3 = 0; b3 < CLASSES; b3++) third[(pt * 10 + bt) * 3 + OUTCOME[pt * 10 + ((bt + b3) % 10)]!]! += c[b3]!;
    }
  }
  return third;
}

/**
 * Adds `weight` times each Banker third card still in the shoe to the outcome it gives: the full
 * shoe's counts from `third`, less the cards dealt (r1..r4, and r5 unless it is −1).
 */
function addBankerThird(
  acc: Float64Array,
  third: Float64Array,
  pt: number,
  bt: number,
  weight: number,
  r1: number,
  r2: number,
  r3: number,
  r4: number,
  r5: number,
): void {
  const base = (pt * 10 + bt) * 3;
  const row = pt * 10;
  const left = [third[base]!, third[base + 1]!, third[base + 2]!];
  left[OUTCOME[row + ((bt + r1) % 10)]!]!--;
  left[OUTCOME[row + ((bt + r2) % 10)]!]!--;
  left[OUTCOME[row + ((bt + r3) % 10)]!]!--;
  left[OUTCOME[row + ((bt + r4) % 10)]!]!--;
  if (r5 >= 0) left[OUTCOME[row + ((bt + r5) % 10)]!]!--;
  acc[0]! += weight * left[0]!;
  acc[1]! += weight * left[1]!;
  acc[2]! += weight * left[2]!;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

function reduce(numerator: bigint, denominator: bigint): Fraction {
  const g = gcd(numerator, denominator) || 1n;
  return { numerator: numerator / g, denominator: denominator / g };
}

/** Probabilities and house edges from exact counts, with the payouts and pushes of settle.ts. */
export function oddsFromCounts(decks: number, counts: OutcomeCounts): Odds {
  const probability = {} as Record<Outcome, number>;
  for (const outcome of OUTCOMES) probability[outcome] = Number(counts[outcome]) / Number(counts.total);
  const houseEdge = {} as Record<Box, number>;
  const houseEdgeExact = {} as Record<Box, Fraction>;
  for (const box of BOXES) {
    const [num, den] = PAYOUTS[box];
    // The player's expected net per unit, times den · total: wins pay num/den, losses cost 1, pushes 0.
    let expected = 0n;
    for (const outcome of OUTCOMES) {
      const result = betResult(box, outcome);
      if (result === 'win') expected += BigInt(num) * counts[outcome];
      else if (result === 'lose') expected -= BigInt(den) * counts[outcome];
    }
    const edge = reduce(-expected, BigInt(den) * counts.total);
    houseEdgeExact[box] = edge;
    houseEdge[box] = Number(edge.numerator) / Number(edge.denominator);
  }
  return { decks, ...counts, probability, houseEdge, houseEdgeExact };
}

const cache = new Map<number, Odds>();

/** The exact odds of a fresh shoe of 1–8 decks: counts, probabilities, house edges. Cached per deck count. */
export function exactOdds(decks: number): Result<Odds, EngineError<OddsErrorCode>> {
  const cached = cache.get(decks);
  if (cached) return ok(cached);
  const counts = countOutcomes(decks);
  if (!counts.ok) return counts;
  const odds = oddsFromCounts(decks, counts.value);
  cache.set(decks, odds);
  return ok(odds);
}
