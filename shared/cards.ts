/**
 * Cards are small integers 0..51 (times the deck count in a shoe, reduced mod 52):
 *
 *   card = suitIndex * 13 + rankIndex
 *
 * with ranks in the order A 2 3 4 5 6 7 8 9 T J Q K and suits S H D C. Integers keep the hot
 * paths (simulation, odds, shuffling) free of allocation; `cardCode` and `parseCard` convert to the
 * two-letter codes (`9S`, `KH`, `TC`) that every external format uses.
 */

export type Rank = 'A' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T' | 'J' | 'Q' | 'K';
export type Suit = 'S' | 'H' | 'D' | 'C';
/** A card code: rank then suit, e.g. `9S`, `KH`, `TC`. */
export type CardCode = `${Rank}${Suit}`;
/** A card as an integer 0..51: suitIndex * 13 + rankIndex. */
export type Card = number;

export const RANKS: readonly Rank[] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];
export const CARDS_PER_DECK = 52;
export const MIN_DECKS = 1;
export const MAX_DECKS = 8;
export const DEFAULT_DECKS = 6;

/** Point value of each rank index: A=1, 2–9 face value, T/J/Q/K=0. */
const RANK_POINTS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0];

/** Point value of every card 0..51, precomputed for the hot paths. */
export const CARD_POINTS: Uint8Array = Uint8Array.from({ length: CARDS_PER_DECK }, (_, c) => RANK_POINTS[c % 13]!);

export function rankOf(card: Card): Rank {
  return RANKS[card % 13]!;
}

export function suitOf(card: Card): Suit {
  return SUITS[Math.floor(card / 13) % 4]!;
}

/** Baccarat point value: A=1, 2–9 face, tens and faces 0. */
export function pointOf(card: Card): number {
  return CARD_POINTS[card % CARDS_PER_DECK]!;
}

/** A hand's total: the sum of its points modulo 10. */
export function handTotal(cards: readonly Card[]): number {
  let sum = 0;
  for (const c of cards) sum += pointOf(c);
  return sum % 10;
}

export function cardCode(card: Card): CardCode {
  return `${rankOf(card)}${suitOf(card)}`;
}

export function isCardCode(text: string): text is CardCode {
  return /^[A2-9TJQK][SHDC]$/.test(text);
}

/** Parses `9S`, `KH`, `TC`…; also accepts lower case and `10` for T. Returns null when it is no card. */
export function parseCard(text: string): Card | null {
  const code = text.trim().toUpperCase().replace(/^10/, 'T');
  if (!isCardCode(code)) return null;
  return SUITS.indexOf(code[1] as Suit) * 13 + RANKS.indexOf(code[0] as Rank);
}

/** All cards of `decks` decks in a fixed order: deck by deck, suits S H D C, ranks A..K. */
export function orderedDecks(decks: number): Card[] {
  const cards: Card[] = new Array(decks * CARDS_PER_DECK);
  for (let i = 0; i < cards.length; i++) cards[i] = i % CARDS_PER_DECK;
  return cards;
}
