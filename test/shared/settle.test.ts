import { describe, expect, test } from 'vitest';
import { OUTCOMES } from '../../shared/round.ts';
import { betResult, PAYOUTS, settle, winnings } from '../../shared/settle.ts';
import type { Bet } from '../../shared/table.ts';

describe('payouts (RULES.md "Bets and payouts")', () => {
  test('Player 1:1, Banker 19:20, Tie 8:1', () => {
    expect(PAYOUTS).toEqual({ player: [1, 1], banker: [19, 20], tie: [8, 1] });
    expect(winnings('player', 1_000)).toBe(1_000);
    expect(winnings('banker', 1_000)).toBe(950);
    expect(winnings('tie', 1_000)).toBe(8_000);
  });

  test('a 0.1 Banker bet (100 minor units) wins 95', () => {
    const s = settle([{ sector: 0, box: 'banker', amount: 100 }], 'banker');
    expect(s.bets[0]).toEqual({ sector: 0, box: 'banker', amount: 100, result: 'win', returned: 195, net: 95 });
    expect(s).toMatchObject({ staked: 100, returned: 195, net: 95 });
  });

  test('an amount whose commission is not whole is refused, never rounded', () => {
    expect(() => winnings('banker', 110)).toThrow(RangeError);
    expect(winnings('banker', 120)).toBe(114);
  });

  test.each([
    // outcome, box, result, returned on a 1,000 stake
    ['player', 'player', 'win', 2_000],
    ['player', 'banker', 'lose', 0],
    ['player', 'tie', 'lose', 0],
    ['banker', 'player', 'lose', 0],
    ['banker', 'banker', 'win', 1_950],
    ['banker', 'tie', 'lose', 0],
    ['tie', 'player', 'push', 1_000],
    ['tie', 'banker', 'push', 1_000],
    ['tie', 'tie', 'win', 9_000],
  ] as const)('outcome %s: a %s bet %s, returns %i', (outcome, box, result, returned) => {
    expect(betResult(box, outcome)).toBe(result);
    const s = settle([{ sector: 2, box, amount: 1_000 }], outcome);
    expect(s.bets[0]).toEqual({ sector: 2, box, amount: 1_000, result, returned, net: returned - 1_000 });
  });

  test('several boxes in several sectors: totals per round', () => {
    const bets: Bet[] = [
      { sector: 0, box: 'player', amount: 1_000 },
      { sector: 0, box: 'tie', amount: 100 },
      { sector: 3, box: 'banker', amount: 2_000 },
    ];
    for (const outcome of OUTCOMES) {
      const s = settle(bets, outcome);
      expect(s.staked).toBe(3_100);
      expect(s.returned).toBe(s.bets.reduce((a, b) => a + b.returned, 0));
      expect(s.net).toBe(s.returned - s.staked);
    }
    expect(settle(bets, 'tie')).toMatchObject({ returned: 1_000 + 900 + 2_000, net: 800 });
    expect(settle(bets, 'banker')).toMatchObject({ returned: 3_900, net: 800 });
    expect(settle(bets, 'player')).toMatchObject({ returned: 2_000, net: -1_100 });
    expect(settle([], 'tie')).toEqual({ bets: [], staked: 0, returned: 0, net: 0 });
  });
});

describe('the commission rule in ISO minor units (WALLET.md "The Banker\'s commission")', () => {
  // Cell by cell for Banker stakes of 1 to 40 minor units (1–40 JPY, €0.01–€0.40, 0.001–0.040 BHD):
  // winnings ⌊19a/20⌋, so the 5% commission rounds up to a whole minor unit.
  const WINNINGS_1_TO_40 = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
  ];
  test('Banker winnings round down, stake by stake', () => {
    expect(WINNINGS_1_TO_40.map((_, i) => winnings('banker', i + 1, 'round-down'))).toEqual(WINNINGS_1_TO_40);
    expect(WINNINGS_1_TO_40.map((w, i) => i + 1 - w)).toEqual(WINNINGS_1_TO_40.map((_, i) => Math.ceil((i + 1) / 20)));
  });

  test('whole amounts are the same under both rules; Player and Tie are always whole', () => {
    for (let a = 1; a <= 400; a++) {
      expect(winnings('player', a, 'round-down')).toBe(a);
      expect(winnings('tie', a, 'round-down')).toBe(8 * a);
      if (a % 20 === 0) expect(winnings('banker', a, 'round-down')).toBe(winnings('banker', a));
      else expect(() => winnings('banker', a)).toThrow(RangeError);
    }
  });

  test('a round settles with the rule: 15 JPY on Banker pays 14, a tie returns it whole', () => {
    const bets = [{ sector: 0, box: 'banker' as const, amount: 15 }];
    expect(settle(bets, 'banker', 'round-down')).toMatchObject({ staked: 15, returned: 29, net: 14 });
    expect(settle(bets, 'tie', 'round-down')).toMatchObject({ staked: 15, returned: 15, net: 0 });
    expect(settle(bets, 'player', 'round-down')).toMatchObject({ staked: 15, returned: 0, net: -15 });
    expect(() => settle(bets, 'banker')).toThrow(RangeError);
  });
});
