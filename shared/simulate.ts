/**
 * Monte Carlo play of many rounds from real shoes, fast: the shoe is a Uint8Array of "fast cards"
 * (rank and points in one byte, see `fastCard`), shuffled in place, burned and dealt to the cut
 * card exactly as shoe.ts does (`burnedCards`, `cutCardIndex`, "the round in progress finishes,
 * then the shoe ends"). Every draw decision comes from round.ts through the tables of
 * rule-tables.ts, and the tests check this fast path against `playRound`/`dealRound` card for card.
 *
 * Two shortcuts, both exact in distribution: the Fisher–Yates shuffle runs front to back and stops
 * at the last card a round can reach (the cards behind the cut card are never seen), and the
 * player's cut is skipped (cutting a uniformly shuffled stack leaves it uniformly shuffled).
 */
import { type Card, CARDS_PER_DECK, orderedDecks, pointOf } from './cards.ts';
import { type EngineError, fail, ok, type Result } from './errors.ts';
import { MAX_CARDS_PER_ROUND, OUTCOMES, type RoundSummary } from './round.ts';
import { BANKER_COLUMNS, BANKER_DRAWS, NATURAL, OUTCOME, PLAYER_DRAWS } from './rule-tables.ts';
import { burnedCards, cutCardIndex, type ShoeErrorCode, type ShoeRules, validateShoeRules } from './shoe.ts';

/** A source of uniform integers in [0, n) as an object, e.g. `Xoshiro128` from prng.ts. */
export interface UniformSource {
  below(n: number): number;
}

export interface SimulationResult {
  hands: number;
  /** Shoes started (in reshuffle mode, one per hand). */
  shoes: number;
  player: number;
  banker: number;
  tie: number;
  /** Rounds where either hand had a natural 8 or 9. */
  naturals: number;
  /** Rounds whose Player's first two cards were a pair (same rank). */
  playerPairs: number;
  bankerPairs: number;
}

export type SimulationErrorCode = 'bad_hands' | ShoeErrorCode;

const RANKS_PER_SUIT = 13;
const POINT_BITS = 4;
const POINT_MASK = 15;

/**
 * The fast path's card: `rank << 4 | points` (rank index 0..12 for A..K), so a card's points are one
 * mask away and two cards are of the same rank exactly when their bytes are equal.
 */
export function fastCard(card: Card): number {
  return ((card % RANKS_PER_SUIT) << POINT_BITS) | pointOf(card);
}

/** The rank-index card (the spade, 0..12) of a fast card, which is enough for shoe.ts's burn rule. */
function cardOfFast(fast: number): Card {
  return fast >> POINT_BITS;
}

/** MOD10[s] = s mod 10 for the sums 0..18 of two totals or points. */
const MOD10: Uint8Array = Uint8Array.from({ length: 19 }, (_, s) => s % 10);

/** Flags of `DRAWS`. */
const NATURAL_FLAG = 1;
const PLAYER_DRAWS_FLAG = 2;
const BANKER_DRAWS_FLAG = 4;

/**
 * DRAWS[playerTwoCardTotal * 100 + bankerTwoCardTotal * 10 + pointsOfFifthCard]: who draws, from the
 * rule tables (round.ts). The fifth card is the Player's third when the Player draws; otherwise it
 * does not matter. One lookup decides how many cards the round takes, which is what the next
 * round waits for.
 */
const DRAWS: Uint8Array = Uint8Array.from({ length: 1000 }, (_, i) => {
  const pt = Math.floor(i / 100);
  const bt = Math.floor(i / 10) % 10;
  const p3 = i % 10;
  if (NATURAL[pt]! | NATURAL[bt]!) return NATURAL_FLAG;
  const playerDraws = PLAYER_DRAWS[pt] === 1;
  const bankerDraws = BANKER_DRAWS[bt * BANKER_COLUMNS + (playerDraws ? 1 + p3 : 0)] === 1;
  return (playerDraws ? PLAYER_DRAWS_FLAG : 0) | (bankerDraws ? BANKER_DRAWS_FLAG : 0);
});

/*
 * A resolved round packed in one small integer, so the hot loop allocates nothing:
 *   bits 0–3 Player total · 4–7 Banker total · 8–9 outcome index (into OUTCOMES) · 10 natural ·
 *   11 Player pair · 12 Banker pair · 13–15 cards used.
 */
export type FastRound = RoundSummary;

/** Unpacks the result of `resolveRoundFast` (for tests and callers that want names). */
export function unpackRound(packed: number): FastRound {
  return {
    playerTotal: packed & 15,
    bankerTotal: (packed >> 4) & 15,
    outcome: OUTCOMES[(packed >> 8) & 3]!,
    natural: ((packed >> 10) & 1) === 1,
    playerPair: ((packed >> 11) & 1) === 1,
    bankerPair: ((packed >> 12) & 1) === 1,
    cardsUsed: packed >> 13,
  };
}

/**
 * Plays the round whose first card is `shoe[at]` (fast cards; deal order P, B, P, B, then third
 * cards) and returns it packed (see `unpackRound`). The caller guarantees six cards from `at`.
 */
export function resolveRoundFast(shoe: Uint8Array, at: number): number {
  // Branch-free: the sixth card is read even when unused, and flags pick what counts.
  const p1 = shoe[at]!;
  const b1 = shoe[at + 1]!;
  const p2 = shoe[at + 2]!;
  const b2 = shoe[at + 3]!;
  const fifth = shoe[at + 4]! & POINT_MASK;
  const pt2 = MOD10[(p1 & POINT_MASK) + (p2 & POINT_MASK)]!;
  const bt2 = MOD10[(b1 & POINT_MASK) + (b2 & POINT_MASK)]!;
  const draws = DRAWS[pt2 * 100 + bt2 * 10 + fifth]!;
  const playerDraws = (draws >> 1) & 1;
  const bankerDraws = draws >> 2;
  const pt = MOD10[pt2 + playerDraws * fifth]!;
  const bt = MOD10[bt2 + bankerDraws * (shoe[at + 4 + playerDraws]! & POINT_MASK)]!;
  return (
    pt |
    (bt << 4) |
    (OUTCOME[pt * 10 + bt]! << 8) |
    ((draws & NATURAL_FLAG) << 10) |
    (+(p1 === p2) << 11) |
    (+(b1 === b2) << 12) |
    ((4 + playerDraws + bankerDraws) << 13)
  );
}

/** What one round adds to `playShoeFast`'s packed outcome counter, by outcome index (see there). */
const OUTCOME_STEP = Int32Array.of(1, 1 << 16, 0, 0);

/** Tally slots of `playShoeFast`: the outcome indices of OUTCOMES, then these. */
export const TALLY_NATURALS = 3;
export const TALLY_PLAYER_PAIRS = 4;
export const TALLY_BANKER_PAIRS = 5;
export const TALLY_HANDS = 6;
export const TALLY_SIZE = 7;

/**
 * Deals the rounds of one shoe (fast cards) from `start` while the cut card (at `cutCardAt`) has not
 * come out, at most `maxHands` (and 65,535) of them, adding each to `tally`. Returns the index of
 * the next card: the discard tray is everything before it.
 */
export function playShoeFast(shoe: Uint8Array, start: number, cutCardAt: number, maxHands: number, tally: Float64Array): number {
  let pos = start;
  let hands = 0;
  let naturals = 0;
  let playerPairs = 0;
  let bankerPairs = 0;
  // Outcome indices 0 and 1 counted in one number, 16 bits each, so no branch on the outcome; the
  // third is what is left. One call deals one shoe: at most 416 / 4 rounds, far below 2^16.
  let outcomes = 0;
  const limit = Math.min(maxHands, 0xffff);
  while (pos < cutCardAt && hands < limit) {
    const r = resolveRoundFast(shoe, pos);
    outcomes += OUTCOME_STEP[(r >> 8) & 3]!;
    naturals += (r >> 10) & 1;
    playerPairs += (r >> 11) & 1;
    bankerPairs += (r >> 12) & 1;
    pos += r >> 13;
    hands++;
  }
  const first = outcomes & 0xffff;
  const second = outcomes >>> 16;
  tally[0]! += first;
  tally[1]! += second;
  tally[2]! += hands - first - second;
  tally[TALLY_NATURALS]! += naturals;
  tally[TALLY_PLAYER_PAIRS]! += playerPairs;
  tally[TALLY_BANKER_PAIRS]! += bankerPairs;
  tally[TALLY_HANDS]! += hands;
  return pos;
}

/**
 * Fisher–Yates front to back over the first `limit` positions: afterwards `shoe[0..limit)` is a
 * uniformly random ordered draw from the whole stack, whatever order it was in before.
 */
function shufflePrefix(shoe: Uint8Array, limit: number, random: UniformSource): void {
  const size = shoe.length;
  for (let i = 0; i < limit; i++) {
    const j = i + random.below(size - i);
    const t = shoe[i]!;
    shoe[i] = shoe[j]!;
    shoe[j] = t;
  }
}

/**
 * Plays `hands` rounds from real shoes under `rules` (decks, burn, cut card, shoe or reshuffle
 * mode), each shoe shuffled with `random`. Deterministic given the rules and the source.
 */
export function simulate(hands: number, rules: ShoeRules, random: UniformSource): Result<SimulationResult, EngineError<SimulationErrorCode>> {
  if (!Number.isSafeInteger(hands) || hands < 0) {
    return fail('bad_hands', `the number of hands must be a whole number ≥ 0, got ${String(hands)}`);
  }
  const valid = validateShoeRules(rules);
  if (!valid.ok) return valid;
  const shoe = Uint8Array.from(orderedDecks(rules.decks), fastCard);
  const size = rules.decks * CARDS_PER_DECK;
  const cutCardAt = cutCardIndex(size, rules);
  // How many cards to shuffle: as far as any round can read. In a shoe a round starts before the
  // cut card and takes at most six; in reshuffle mode there is one round from the top, no burn.
  const reach = rules.mode === 'reshuffle' ? MAX_CARDS_PER_ROUND : Math.min(cutCardAt + MAX_CARDS_PER_ROUND - 1, size - 1);
  const tally = new Float64Array(TALLY_SIZE);
  let shoes = 0;
  while (tally[TALLY_HANDS]! < hands) {
    shufflePrefix(shoe, reach, random);
    shoes++;
    const start = burnedCards(cardOfFast(shoe[0]!), rules);
    const roundsLeft = rules.mode === 'reshuffle' ? 1 : hands - tally[TALLY_HANDS]!;
    playShoeFast(shoe, start, cutCardAt, roundsLeft, tally);
  }
  return ok({
    hands: tally[TALLY_HANDS]!,
    shoes,
    player: tally[OUTCOMES.indexOf('player')]!,
    banker: tally[OUTCOMES.indexOf('banker')]!,
    tie: tally[OUTCOMES.indexOf('tie')]!,
    naturals: tally[TALLY_NATURALS]!,
    playerPairs: tally[TALLY_PLAYER_PAIRS]!,
    bankerPairs: tally[TALLY_BANKER_PAIRS]!,
  });
}
