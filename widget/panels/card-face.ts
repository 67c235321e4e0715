/**
 * A card code (`9S`, `TH`) as people read it: rank, suit glyph, colour, and a spoken name.
 */
import { html, type TemplateResult } from 'lit';
import type { CardCode, Rank, Suit } from '../../shared/cards.ts';

const SUIT_GLYPHS: Readonly<Record<Suit, string>> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SUIT_NAMES: Readonly<Record<Suit, string>> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_NAMES: Readonly<Record<Rank, string>> = {
  A: 'ace', '2': 'two', '3': 'three', '4': 'four', '5': 'five', '6': 'six', '7': 'seven',
  '8': 'eight', '9': 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king',
};

export interface CardFace {
  /** `10` for T, otherwise the code's rank letter or digit. */
  rank: string;
  suit: string;
  red: boolean;
  /** e.g. "queen of hearts". */
  name: string;
}

export function cardFace(code: CardCode | string): CardFace {
  const rank = code[0] as Rank;
  const suit = code[1] as Suit;
  return {
    rank: rank === 'T' ? '10' : rank,
    suit: SUIT_GLYPHS[suit] ?? '?',
    red: suit === 'H' || suit === 'D',
    name: `${RANK_NAMES[rank] ?? rank} of ${SUIT_NAMES[suit] ?? suit}`,
  };
}

/** A small card face; styles are `cardStyles` (the host panel includes them). */
export function cardTemplate(code: CardCode | string): TemplateResult {
  const face = cardFace(code);
  return html`<span class="card ${face.red ? 'red' : 'black'}" role="img" aria-label=${face.name} title=${face.name}
    ><span class="rank">${face.rank}</span><span class="suit">${face.suit}</span></span
  >`;
}
