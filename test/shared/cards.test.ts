import { describe, expect, test } from 'vitest';
import { CARD_POINTS, cardCode, isCardCode, orderedDecks, parseCard, pointOf, rankOf, RANKS, SUITS, suitOf } from '../../shared/cards.ts';

describe('cards', () => {
  test('A counts 1, 2–9 face value, T J Q K count 0, in every suit', () => {
    const expected: Record<string, number> = { A: 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, T: 0, J: 0, Q: 0, K: 0 };
    for (const suit of SUITS) {
      for (const rank of RANKS) {
        const card = parseCard(`${rank}${suit}`)!;
        expect(pointOf(card)).toBe(expected[rank]);
        expect(rankOf(card)).toBe(rank);
        expect(suitOf(card)).toBe(suit);
        expect(cardCode(card)).toBe(`${rank}${suit}`);
      }
    }
    expect(CARD_POINTS.length).toBe(52);
  });

  test('every card 0..51 round-trips through its code', () => {
    for (let c = 0; c < 52; c++) expect(parseCard(cardCode(c))).toBe(c);
  });

  test('parseCard accepts lower case, spaces and 10; refuses anything else', () => {
    expect(parseCard(' 10h ')).toBe(parseCard('TH'));
    expect(parseCard('qs')).toBe(parseCard('QS'));
    for (const bad of ['', '1S', 'KX', 'S9', '9', '99S', 'AA', '0S']) expect(parseCard(bad)).toBeNull();
    expect(isCardCode('9S')).toBe(true);
    expect(isCardCode('9s')).toBe(false);
  });

  test('orderedDecks holds each card once per deck', () => {
    for (const decks of [1, 6, 8]) {
      const cards = orderedDecks(decks);
      expect(cards.length).toBe(52 * decks);
      const counts = new Array<number>(52).fill(0);
      for (const c of cards) counts[c]!++;
      expect(counts.every((n) => n === decks)).toBe(true);
    }
  });
});
