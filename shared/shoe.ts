/**
 * The shoe as a value (RULES.md "The shoe"): all 52 × decks cards shuffled into one stack, cut by
 * the player, the burn, the cut card, the discard. Randomness comes in as `RandomBelow`, never from
 * `Math.random`: the fairness layer passes its keyed stream, simulations a seeded generator.
 *
 * Positions are indices into `Shoe.cards` (the stack after shuffle and cut): card 0 is the first
 * card out of the shoe. Everything before `next` is in the discard tray (burned or dealt).
 */
import { type Card, CARD_POINTS, CARDS_PER_DECK, MAX_DECKS, MIN_DECKS, orderedDecks, DEFAULT_DECKS } from './cards.ts';
import { fail, ok, type EngineError, type Result } from './errors.ts';
import { MAX_CARDS_PER_ROUND, playRound, type Round } from './round.ts';

/** Returns a uniform integer in [0, n). */
export type RandomBelow = (n: number) => number;

/** `shoe`: deal until the cut card; `reshuffle`: every round from a freshly shuffled stack (online rooms, seeds 002/003). */
export type ShoeMode = 'shoe' | 'reshuffle';
export const SHOE_MODES: readonly ShoeMode[] = ['shoe', 'reshuffle'];

/** Everything that decides which cards come out, besides randomness and the player's cut. */
export interface ShoeRules {
  decks: number;
  /** Turn the first card and burn that many more (tens and faces burn 10). */
  burn: boolean;
  /** The cut card goes this many cards before the end of the stack. */
  cutCardFromEnd: number;
  mode: ShoeMode;
}

export const DEFAULT_SHOE_RULES: Readonly<ShoeRules> = { decks: DEFAULT_DECKS, burn: true, cutCardFromEnd: 16, mode: 'shoe' };

/**
 * The rules a new table of `mode` commits to (RULES.md "The shoe"): the cut card goes in the middle
 * of the stack, `floor(52 × decks / 2)` cards from the end. A reshuffle table has no cut card (every
 * round has its own stack; pb-fair-2 commits none there); its rules carry the same valid position
 * so that both modes share one shape.
 */
export function defaultShoeRules(mode: ShoeMode, decks: number = DEFAULT_DECKS): ShoeRules {
  return { decks, burn: true, cutCardFromEnd: Math.floor((CARDS_PER_DECK * decks) / 2), mode };
}

/** The most cards a burn can take: the turned card plus ten. */
export const MAX_BURN = 11;

export type ShoeErrorCode = 'bad_decks' | 'bad_cut_card' | 'bad_mode' | 'bad_cut';

export function validateShoeRules(rules: ShoeRules): Result<ShoeRules, EngineError<ShoeErrorCode>> {
  if (!Number.isInteger(rules.decks) || rules.decks < MIN_DECKS || rules.decks > MAX_DECKS) {
    return fail('bad_decks', `a shoe holds ${MIN_DECKS} to ${MAX_DECKS} decks, got ${String(rules.decks)}`);
  }
  if (!SHOE_MODES.includes(rules.mode)) return fail('bad_mode', `mode must be "shoe" or "reshuffle", got ${String(rules.mode)}`);
  const total = rules.decks * CARDS_PER_DECK;
  // At least one round's cards behind the cut card, and room for one full round before it after the largest burn.
  const lo = MAX_CARDS_PER_ROUND;
  const hi = total - MAX_BURN - MAX_CARDS_PER_ROUND;
  if (!Number.isInteger(rules.cutCardFromEnd) || rules.cutCardFromEnd < lo || rules.cutCardFromEnd > hi) {
    return fail('bad_cut_card', `the cut card must sit ${lo} to ${hi} cards from the end of a ${rules.decks}-deck shoe, got ${String(rules.cutCardFromEnd)}`);
  }
  return ok(rules);
}

/** Fisher–Yates: a uniform permutation when `randomBelow` is uniform. Returns a new array. */
export function shuffleCards(cards: readonly Card[], randomBelow: RandomBelow): Card[] {
  const out = cards.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

/** Valid cut indices for a stack of `size` cards: 1 .. size-1 (a cut moves at least one card). */
export function validateCut(cut: number, size: number): Result<number, EngineError<ShoeErrorCode>> {
  if (!Number.isInteger(cut) || cut < 1 || cut >= size) return fail('bad_cut', `the cut must be a whole number from 1 to ${size - 1}, got ${String(cut)}`);
  return ok(cut);
}

/** The player's cut, as at a real table: the top `cut` cards go under the rest. */
export function cutStack(cards: readonly Card[], cut: number): Card[] {
  return cards.slice(cut).concat(cards.slice(0, cut));
}

/** How many cards a burn takes given the turned card: itself plus its point value, tens and faces 10. */
export function burnCount(turned: Card): number {
  const p = CARD_POINTS[turned % CARDS_PER_DECK]!;
  return 1 + (p === 0 ? 10 : p);
}

export interface Shoe {
  rules: ShoeRules;
  /** The stack in dealing order, after shuffle and cut. */
  cards: readonly Card[];
  /** Cards burned at the start (the turned card included). */
  burned: number;
  /** When `next` reaches this index the cut card has come out: the round in progress finishes, then the shoe ends. */
  cutCardAt: number;
  /** Index of the next card to deal; cards before it are in the discard tray. */
  next: number;
  /** Rounds dealt from this shoe. */
  rounds: number;
}

/** Cards burned at the start of a shoe whose first card is `first`: none in reshuffle mode or with the burn off. */
export function burnedCards(first: Card, rules: ShoeRules): number {
  return rules.mode === 'shoe' && rules.burn ? burnCount(first) : 0;
}

/**
 * Index of the cut card in a stack of `size` cards: when the next card to deal reaches it, the cut
 * card has come out. In reshuffle mode there is no cut card; the index only keeps one round's cards
 * in reach (the shoe ends after its first round anyway).
 */
export function cutCardIndex(size: number, rules: ShoeRules): number {
  return rules.mode === 'shoe' ? size - rules.cutCardFromEnd : size - MAX_CARDS_PER_ROUND;
}

/** A new shoe from a shuffled, cut stack: burns per the rules and places the cut card. */
export function prepareShoe(stack: readonly Card[], rules: ShoeRules): Shoe {
  const burned = burnedCards(stack[0]!, rules);
  return { rules, cards: stack, burned, cutCardAt: cutCardIndex(stack.length, rules), next: burned, rounds: 0 };
}

/** A freshly shuffled and cut shoe: all cards of the rules' decks. */
export function newShoe(rules: ShoeRules, randomBelow: RandomBelow, cut: number): Shoe {
  const stack = cutStack(shuffleCards(orderedDecks(rules.decks), randomBelow), cut);
  return prepareShoe(stack, rules);
}

/** Every round deals at least the four first cards (Punto, Banco, Punto, Banco). */
export const MIN_CARDS_PER_ROUND = 4;

/** How many cards of the stack are gone once these dealt cards are out: the highest position, plus one (burned cards before them included). */
export function cardsDealtThrough(cards: readonly { position: number }[], before = 0): number {
  let dealt = before;
  for (const card of cards) dealt = Math.max(dealt, card.position + 1);
  return dealt;
}

/**
 * The next round is certainly the shoe's last: even its four first cards reach the cut card, which
 * then comes out in it (the round in progress finishes, then the shoe ends). `cardsLeft`: cards
 * still in the shoe; `cutCardFromEnd`: the committed place of the cut card. A round that may take
 * a fifth or sixth card to reach it is not announced: whether it does depends on its cards.
 */
export function nextRoundIsLast(cardsLeft: number, cutCardFromEnd: number): boolean {
  return cardsLeft - MIN_CARDS_PER_ROUND <= cutCardFromEnd;
}

/** The cut card has come out (or, in reshuffle mode, the round was dealt): no further round from this stack. */
export function shoeEnded(shoe: Shoe): boolean {
  return shoe.rules.mode === 'reshuffle' ? shoe.rounds > 0 : shoe.next >= shoe.cutCardAt;
}

export interface Dealt {
  shoe: Shoe;
  round: Round;
  /** The cut card came out during this round: it is the shoe's last. */
  cutCardOut: boolean;
}

export type DealErrorCode = 'shoe_ended';

/** Deals the next round. Positions in the round are indices into the shoe's stack. */
export function dealRound(shoe: Shoe): Result<Dealt, EngineError<DealErrorCode>> {
  if (shoeEnded(shoe)) return fail('shoe_ended', 'the cut card has come out: this shoe has ended, start a new one');
  const round = playRound(shoe.cards, shoe.next);
  const next = shoe.next + round.cardsUsed;
  const after: Shoe = { ...shoe, next, rounds: shoe.rounds + 1 };
  return ok({ shoe: after, round, cutCardOut: shoeEnded(after) });
}
