/**
 * A card code (`9S`, `TH`) as people read it: rank, suit glyph, colour, and a spoken name (in the
 * panel's language when given its strings).
 */
import { html, type TemplateResult } from 'lit';
import type { CardCode, Rank, Suit } from '../../shared/cards.ts';
import { fill, type PanelStrings } from './strings.ts';

/** The texts a card's spoken name is made of. */
export type CardNameStrings = Pick<PanelStrings, 'cardName' | 'cardRanks' | 'cardSuits'>;

/** The order of the names in `cardRanks` and `cardSuits`. */
const RANK_ORDER: readonly Rank[] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SUIT_ORDER: readonly Suit[] = ['S', 'H', 'D', 'C'];

const SUIT_GLYPHS: Readonly<Record<Suit, string>> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SUIT_NAMES: Readonly<Record<Suit, string>> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_NAMES: Readonly<Record<Rank, string>> = {
  A: 'ace',
  '2': 'two',
  '3': 'three',
  '4': 'four',
  '5': 'five',
  '6': 'six',
  '7': 'seven',
  '8': 'eight',
  '9': 'nine',
  T: 'ten',
  J: 'jack',
  Q: 'queen',
  K: 'king',
};

export interface CardFace {
  /** `10` for T, otherwise the code's rank letter or digit. */
  rank: string;
  suit: string;
  red: boolean;
  /** e.g. "queen of hearts". */
  name: string;
}

export function cardFace(code: CardCode | string, strings?: CardNameStrings | null): CardFace {
  const rank = code[0] as Rank;
  const suit = code[1] as Suit;
  const rankName = strings?.cardRanks.split(',')[RANK_ORDER.indexOf(rank)]?.trim() || RANK_NAMES[rank] || rank;
  const suitName = strings?.cardSuits.split(',')[SUIT_ORDER.indexOf(suit)]?.trim() || SUIT_NAMES[suit] || suit;
  return {
    rank: rank === 'T' ? '10' : rank,
    suit: SUIT_GLYPHS[suit] ?? '?',
    red: suit === 'H' || suit === 'D',
    name: strings ? fill(strings.cardName, { rank: rankName, suit: suitName }) : `${rankName} of ${suitName}`,
  };
}

/** A small card face; styles are `cardStyles` (the host panel includes them). */
export function cardTemplate(code: CardCode | string, strings?: CardNameStrings | null): TemplateResult {
  const face = cardFace(code, strings);
  return html`<span class="card ${face.red ? 'red' : 'black'}" role="img" aria-label=${face.name} title=${face.name}
    ><span class="rank">${face.rank}</span><span class="suit">${face.suit}</span></span
  >`;
}
