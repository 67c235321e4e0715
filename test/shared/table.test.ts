import { describe, expect, test } from 'vitest';
import {
  type Bet,
  type BetErrorCode,
  formatUnits,
  isRoomId,
  MAX_SECTORS_IN_USE,
  MINOR_UNITS,
  roomInBox,
  ROOMS,
  SECTORS,
  startingBalance,
  type TableLimits,
  totalStake,
  validateAmount,
  validateBets,
  validateLimits,
} from '../../shared/table.ts';

const HALL_1 = ROOMS['hall-1'].limits;

function errorOf(
  bets: unknown[],
  limits: TableLimits = HALL_1,
  balance?: number,
): { code: BetErrorCode; message: string; sector?: number; box?: string } | null {
  const result = validateBets(bets as Bet[], limits, balance);
  return result.ok ? null : result.error;
}

describe('rooms (RULES.md: Hall 1 0.1–10, Hall 2 1–100, VIP 25–1,000)', () => {
  test.each([
    ['hall-1', 0.1, 10],
    ['hall-2', 1, 100],
    ['vip', 25, 1_000],
  ] as const)('%s: %d to %d', (id, min, max) => {
    const { limits } = ROOMS[id];
    expect(limits.min).toBe(min * MINOR_UNITS);
    expect(limits.max).toBe(max * MINOR_UNITS);
    expect(validateLimits(limits).ok).toBe(true);
    expect([...limits.chips].sort((a, b) => a - b)).toEqual(limits.chips);
    for (const chip of limits.chips) expect(chip >= limits.min && chip <= limits.max).toBe(true);
    expect(isRoomId(id)).toBe(true);
  });
  test('five sectors, three in use at most; one minor unit is a thousandth', () => {
    expect(SECTORS).toBe(5);
    expect(MAX_SECTORS_IN_USE).toBe(3);
    expect(MINOR_UNITS).toBe(1000);
    expect(isRoomId('hall-3')).toBe(false);
    expect(isRoomId('toString')).toBe(false);
    expect(formatUnits(100)).toBe('0.1');
  });
});

describe('validateBets: the limit rules', () => {
  test('a legal spread: three sectors, several boxes, limits reached exactly', () => {
    const bets: Bet[] = [
      { sector: 0, box: 'player', amount: 100 },
      { sector: 0, box: 'tie', amount: 100 },
      { sector: 2, box: 'banker', amount: 5_000 },
      { sector: 4, box: 'banker', amount: 5_000 },
      { sector: 4, box: 'player', amount: 9_900 },
    ];
    const result = validateBets(bets, HALL_1, 20_100);
    expect(result.ok && result.value).toEqual(bets);
    expect(totalStake(bets)).toBe(20_100);
    expect(errorOf(bets, HALL_1, 20_000)?.code).toBe('insufficient_balance');
  });

  test('the minimum and maximum apply to every box', () => {
    expect(errorOf([{ sector: 0, box: 'tie', amount: 10_000 }])).toBeNull();
    expect(errorOf([{ sector: 0, box: 'tie', amount: 10_100 }])).toMatchObject({ code: 'over_maximum', sector: 0, box: 'tie' });
    expect(errorOf([{ sector: 1, box: 'player', amount: 500 }], ROOMS['hall-2'].limits)).toMatchObject({ code: 'under_minimum', sector: 1, box: 'player' });
    expect(errorOf([{ sector: 1, box: 'player', amount: 1_000 }], ROOMS['hall-2'].limits)).toBeNull();
  });

  test('the sum of one bet type over all boxes stays within the maximum', () => {
    const bets = [
      { sector: 0, box: 'banker', amount: 6_000 },
      { sector: 1, box: 'banker', amount: 4_000 },
    ];
    expect(errorOf(bets)).toBeNull();
    const over = errorOf([...bets, { sector: 2, box: 'banker', amount: 100 }]);
    expect(over?.code).toBe('over_type_limit');
    expect(over?.message).toContain('banker');
    // Other types have their own sums.
    expect(errorOf([...bets, { sector: 2, box: 'player', amount: 10_000 }, { sector: 2, box: 'tie', amount: 10_000 }])).toBeNull();
  });

  test('at most three sectors at once: the fourth is refused', () => {
    const three = [0, 1, 4].map((sector) => ({ sector, box: 'player', amount: 100 }));
    expect(errorOf(three)).toBeNull();
    expect(errorOf([...three, { sector: 1, box: 'tie', amount: 100 }])).toBeNull(); // same sector again
    expect(errorOf([...three, { sector: 3, box: 'tie', amount: 100 }])).toMatchObject({ code: 'fourth_sector', sector: 3, box: 'tie' });
  });

  test.each<[string, unknown[], BetErrorCode, number | undefined]>([
    ['empty_bet', [], 'empty_bet', undefined],
    ['unknown_sector (5)', [{ sector: 5, box: 'player', amount: 100 }], 'unknown_sector', undefined],
    ['unknown_sector (-1)', [{ sector: -1, box: 'player', amount: 100 }], 'unknown_sector', undefined],
    ['unknown_sector (1.5)', [{ sector: 1.5, box: 'player', amount: 100 }], 'unknown_sector', undefined],
    ['unknown_box', [{ sector: 0, box: 'dragon', amount: 100 }], 'unknown_box', undefined],
    [
      'duplicate_box',
      [
        { sector: 0, box: 'tie', amount: 100 },
        { sector: 0, box: 'tie', amount: 200 },
      ],
      'duplicate_box',
      undefined,
    ],
    ['amount_not_integer (fraction)', [{ sector: 0, box: 'tie', amount: 100.5 }], 'amount_not_integer', undefined],
    ['amount_not_integer (string)', [{ sector: 0, box: 'tie', amount: '100' }], 'amount_not_integer', undefined],
    ['amount_not_integer (NaN)', [{ sector: 0, box: 'tie', amount: Number.NaN }], 'amount_not_integer', undefined],
    ['amount_not_integer (unsafe)', [{ sector: 0, box: 'tie', amount: 2 ** 60 }], 'amount_not_integer', undefined],
    ['amount_not_positive (0)', [{ sector: 0, box: 'tie', amount: 0 }], 'amount_not_positive', undefined],
    ['amount_not_positive (negative)', [{ sector: 0, box: 'tie', amount: -100 }], 'amount_not_positive', undefined],
    ['amount_off_step', [{ sector: 0, box: 'banker', amount: 150 }], 'amount_off_step', undefined],
    ['under_minimum', [{ sector: 0, box: 'banker', amount: 100 }], 'under_minimum', undefined],
    ['over_maximum', [{ sector: 0, box: 'banker', amount: 20_000 }], 'over_maximum', undefined],
    [
      'insufficient_balance',
      [
        { sector: 0, box: 'banker', amount: 1_000 },
        { sector: 1, box: 'tie', amount: 1_000 },
      ],
      'insufficient_balance',
      1_900,
    ],
  ])('%s', (_name, bets, code, balance) => {
    const limits = code === 'under_minimum' ? ROOMS['hall-2'].limits : HALL_1;
    const error = errorOf(bets, limits, balance);
    expect(error?.code).toBe(code);
    expect(error?.message.length).toBeGreaterThan(10);
  });

  test('the balance check accepts a stake equal to the balance', () => {
    expect(
      errorOf(
        [
          { sector: 0, box: 'banker', amount: 1_000 },
          { sector: 1, box: 'tie', amount: 1_000 },
        ],
        HALL_1,
        2_000,
      ),
    ).toBeNull();
  });
});

describe('validateAmount (one box while building a bet)', () => {
  test('names the box when given', () => {
    const result = validateAmount(50, HALL_1, { sector: 2, box: 'player' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'amount_off_step', sector: 2, box: 'player' });
    expect(validateAmount(100, HALL_1)).toEqual({ ok: true, value: 100 });
  });
});

describe('validateLimits: bad_limits', () => {
  test.each<[string, TableLimits]>([
    ['non-positive', { min: 0, max: 1_000, step: 100, chips: [100] }],
    ['fractional', { min: 100.5, max: 1_000, step: 100, chips: [100] }],
    ['step not a multiple of 20', { min: 100, max: 1_000, step: 50, chips: [100] }],
    ['min above max', { min: 2_000, max: 1_000, step: 100, chips: [100] }],
    ['min off step', { min: 120, max: 1_000, step: 100, chips: [200] }],
    ['chip off step', { min: 100, max: 1_000, step: 100, chips: [150] }],
    ['negative chip', { min: 100, max: 1_000, step: 100, chips: [-100] }],
  ])('%s', (_name, limits) => {
    const result = validateLimits(limits);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('bad_limits');
  });
});

describe('startingBalance', () => {
  test('a hundred maximum bets on one box: €1,000 in Hall 1, €10,000 in Hall 2, €100,000 in VIP', () => {
    expect(startingBalance('hall-1')).toBe(1_000_000);
    expect(startingBalance('hall-2')).toBe(10_000_000);
    expect(startingBalance('vip')).toBe(100_000_000);
  });
});

describe('roomInBox', () => {
  const limits: TableLimits = { min: 100, max: 1_000, step: 100, chips: [100, 500, 1_000] };
  test('the maximum less what the same type holds in the other sectors; the box itself and other types do not count', () => {
    const bets: Bet[] = [
      { sector: 0, box: 'player', amount: 300 },
      { sector: 1, box: 'player', amount: 200 },
      { sector: 1, box: 'banker', amount: 900 },
    ];
    expect(roomInBox(bets, { sector: 0, box: 'player' }, limits)).toBe(800);
    expect(roomInBox(bets, { sector: 2, box: 'player' }, limits)).toBe(500);
    expect(roomInBox(bets, { sector: 1, box: 'banker' }, limits)).toBe(1_000);
    expect(roomInBox([], { sector: 4, box: 'tie' }, limits)).toBe(1_000);
    // What the room allows, validateBets accepts; one step more, it refuses as over the type limit.
    const filled = [...bets, { sector: 2, box: 'player' as const, amount: 500 }];
    expect(validateBets(filled, limits).ok).toBe(true);
    const over = validateBets([...bets, { sector: 2, box: 'player', amount: 600 }], limits);
    expect(over.ok ? null : over.error.code).toBe('over_type_limit');
  });
});
