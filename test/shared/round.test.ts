import { describe, expect, test } from 'vitest';
import { type Card, handTotal, parseCard } from '../../shared/cards.ts';
import { bankerDraws, isNatural, outcomeOf, playerDraws, playRound, playRoundFromCodes, roundView } from '../../shared/round.ts';

/** A card worth `points` (0 → a king), in a suit that varies so that pairs are not accidental. */
function cardWorth(points: number, suit = 'S'): Card {
  const rank = points === 0 ? 'K' : points === 1 ? 'A' : String(points);
  return parseCard(`${rank}${suit}`)!;
}

/** Two cards totalling `total` (never a pair unless it must be). */
function twoCardsFor(total: number): [number, number] {
  // total = a + b mod 10 with a ≠ b where possible: e.g. 5 → 2 + 3, 0 → K + K? use 3 + 7.
  const a = total === 0 ? 3 : total === 1 ? 4 : 1;
  return [a, (total - a + 10) % 10];
}

/**
 * The Banker table of RULES.md, written out independently as a casino chart: one row per Banker
 * two-card total 0–7; the first column is "the Player stood", then the Player's third card 0–9.
 * D = the Banker draws, S = stands.
 */
const BANKER_CHART: Record<number, string> = {
  0: 'D DDDDDDDDDD',
  1: 'D DDDDDDDDDD',
  2: 'D DDDDDDDDDD',
  3: 'D DDDDDDDDSD',
  4: 'D SSDDDDDDSS',
  5: 'D SSSSDDDDSS',
  6: 'S SSSSSSDDSS',
  7: 'S SSSSSSSSSS',
};

describe('card points and hand totals (RULES.md seed examples)', () => {
  const cardsOf = (ranks: string) => ranks.split(' ').map((r, i) => parseCard(`${r}${'SHDC'[i % 4]}`)!);
  test.each([
    ['K A 9', 0],
    ['2 6', 8],
    ['3 A 9', 3],
    ['4 Q 5', 9],
    ['8 8 9', 5],
    ['7 6', 3],
    ['4 6', 0],
  ])('%s → %i', (ranks, expected) => {
    const cards = cardsOf(ranks);
    expect(handTotal(cards)).toBe(expected);
  });

  test.each([
    ['K A 9', 0],
    ['3 A 9', 3],
    ['4 Q 5', 9],
    ['8 8 9', 5],
  ])('%s as a Banker hand that draws, in a real round → %i', (ranks, expected) => {
    const [b1, b2, b3] = cardsOf(ranks) as [Card, Card, Card];
    // The Player holds 5 + 5 = 0 and draws a 6; every Banker total 0–6 then draws.
    const round = playRound([cardWorth(5), b1, cardWorth(5, 'H'), b2, cardWorth(6, 'D'), b3]);
    expect(round.banker).toEqual([b1, b2, b3]);
    expect(round.bankerTotal).toBe(expected);
    expect(round.playerTotal).toBe(6);
  });

  test('2+6 is a natural 8 and nobody draws', () => {
    const round = playRoundFromCodes(['2S', '5H', '6D', 'KC', '9S', '9H']);
    expect(round.ok && round.value).toMatchObject({ playerTotal: 8, bankerTotal: 5, natural: true, cardsUsed: 4, outcome: 'player' });
  });
});

describe('the Player (every two-card total)', () => {
  test.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])('Player total %i', (pt) => {
    const expectDraw = pt <= 5;
    expect(playerDraws(pt)).toBe(expectDraw);
    const [a, b] = twoCardsFor(pt);
    // Banker holds 7 (never a natural, never draws after a Player's third card), so only the Player's rule acts.
    const round = playRound([cardWorth(a), cardWorth(3, 'H'), cardWorth(b, 'D'), cardWorth(4, 'C'), cardWorth(2), cardWorth(2, 'H')]);
    const natural = pt >= 8;
    expect(round.natural).toBe(natural);
    expect(round.player.length).toBe(!natural && expectDraw ? 3 : 2);
    expect(round.banker.length).toBe(2);
    expect(round.cardsUsed).toBe(round.player.length + 2);
    expect(round.playerTotal).toBe(!natural && expectDraw ? (pt + 2) % 10 : pt);
  });
});

describe('the Banker (every cell of the table)', () => {
  for (let bt = 0; bt <= 7; bt++) {
    const row = BANKER_CHART[bt]!.replace(' ', '');
    test(`Banker total ${bt}, Player stood`, () => {
      const draws = row[0] === 'D';
      expect(bankerDraws(bt, null)).toBe(draws);
      for (const pt of [6, 7]) {
        const [a, b] = twoCardsFor(pt);
        const [c, d] = twoCardsFor(bt);
        const round = playRound([cardWorth(a), cardWorth(c, 'H'), cardWorth(b, 'D'), cardWorth(d, 'C'), cardWorth(5), cardWorth(5, 'H')]);
        expect(round.player.length).toBe(2);
        expect(round.banker.length).toBe(draws ? 3 : 2);
        expect(round.cardsUsed).toBe(draws ? 5 : 4);
        expect(round.bankerTotal).toBe(draws ? (bt + 5) % 10 : bt);
      }
    });
    for (let third = 0; third <= 9; third++) {
      test(`Banker total ${bt}, Player's third card ${third}`, () => {
        const draws = row[third + 1] === 'D';
        expect(bankerDraws(bt, third)).toBe(draws);
        const [a, b] = twoCardsFor(2); // the Player draws on 2
        const [c, d] = twoCardsFor(bt);
        const round = playRound([cardWorth(a), cardWorth(c, 'H'), cardWorth(b, 'D'), cardWorth(d, 'C'), cardWorth(third), cardWorth(4, 'H')]);
        expect(round.player.length).toBe(3);
        expect(round.banker.length).toBe(draws ? 3 : 2);
        expect(round.cardsUsed).toBe(draws ? 6 : 5);
        expect(round.playerTotal).toBe((2 + third) % 10);
        expect(round.bankerTotal).toBe(draws ? (bt + 4) % 10 : bt);
        expect(round.positions).toEqual(draws ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3, 4]);
      });
    }
  }
});

describe('naturals (every case)', () => {
  test('a two-card 8 or 9 on either hand ends the round; 9 beats 8; equal naturals tie', () => {
    let cases = 0;
    for (let pt = 0; pt <= 9; pt++) {
      for (let bt = 0; bt <= 9; bt++) {
        if (pt < 8 && bt < 8) continue;
        cases++;
        const [a, b] = twoCardsFor(pt);
        const [c, d] = twoCardsFor(bt);
        const round = playRound([cardWorth(a), cardWorth(c, 'H'), cardWorth(b, 'D'), cardWorth(d, 'C'), cardWorth(5), cardWorth(5, 'H')]);
        expect(round.natural).toBe(true);
        expect(round.cardsUsed).toBe(4);
        expect([round.playerTotal, round.bankerTotal]).toEqual([pt, bt]);
        expect(round.outcome).toBe(pt > bt ? 'player' : bt > pt ? 'banker' : 'tie');
        // A natural 9 never loses; a natural 8 loses only to a natural 9.
        if (pt === 9) expect(round.outcome).not.toBe('banker');
        if (bt === 9) expect(round.outcome).not.toBe('player');
        if (pt === 8 && round.outcome === 'banker') expect(bt).toBe(9);
      }
    }
    expect(cases).toBe(36);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter(isNatural)).toEqual([8, 9]);
  });
});

describe('outcome', () => {
  test('the higher total wins; equal totals tie', () => {
    for (let p = 0; p <= 9; p++) for (let b = 0; b <= 9; b++) expect(outcomeOf(p, b)).toBe(p > b ? 'player' : p < b ? 'banker' : 'tie');
  });
  test('pairs are the first two cards of the same rank, any suits', () => {
    const round = playRoundFromCodes(['QS', '5H', 'QD', '5C', 'AS', 'AH']);
    expect(round.ok && round.value).toMatchObject({ playerPair: true, bankerPair: true, playerTotal: 1, bankerTotal: 1, outcome: 'tie' });
    const mixed = playRoundFromCodes(['QS', '5H', 'KD', '5C', 'AS', 'AH']);
    expect(mixed.ok && mixed.value.playerPair).toBe(false);
  });
  test('playRound reads from `start` and reports positions in the source', () => {
    const cards = [0, 0, 0, ...[9, 0, 0, 0].map((p) => cardWorth(p))];
    const round = playRound(cards, 3);
    expect(round.positions).toEqual([3, 4, 5, 6]);
    expect(round.playerTotal).toBe(9);
  });
});

describe('playRoundFromCodes', () => {
  test('the example of the README', () => {
    const round = playRoundFromCodes(['9S', 'KH', '4D', 'TC', 'AH', '2D']);
    expect(round.ok).toBe(true);
    if (!round.ok) return;
    expect(roundView(round.value)).toEqual({
      player: ['9S', '4D', 'AH'],
      banker: ['KH', 'TC', '2D'],
      playerTotal: 4,
      bankerTotal: 2,
      outcome: 'player',
      natural: false,
      playerPair: false,
      bankerPair: false,
      cardsUsed: 6,
    });
  });
  test('accepts lower case and 10 for T; ignores cards after the round', () => {
    const round = playRoundFromCodes(['10s', 'kh', '9d', 'Tc', '2S', '2S', '2S']);
    expect(round.ok && round.value.cardsUsed).toBe(4);
  });
  test('bad_card names the offending code', () => {
    const round = playRoundFromCodes(['9S', 'KX', '4D', 'TC']);
    expect(round.ok).toBe(false);
    if (!round.ok) {
      expect(round.error.code).toBe('bad_card');
      expect(round.error.message).toContain('"KX"');
    }
  });
  test.each([
    [['9S', 'KH', '4D'], 'at least 4'],
    [['2S', 'KH', '2D', 'TC'], 'need 5'], // Player 4 draws
    [['2S', 'KH', '2D', 'TC', '5H'], 'need 6'], // Banker 0 draws
    [['7S', 'KH', 'KD', 'TC'], 'need 5'], // Player 7 stands, Banker 0 draws
  ])('not_enough_cards: %j', (codes, message) => {
    const round = playRoundFromCodes(codes);
    expect(round.ok).toBe(false);
    if (!round.ok) {
      expect(round.error.code).toBe('not_enough_cards');
      expect(round.error.message).toContain(message);
    }
  });
});
