import { expect, test } from 'vitest';
import { randomLegalBets, ROOMS, validateBets } from '../../shared/index.ts';

/** A seeded stand-in for the CSPRNG so the test is repeatable. */
function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

test('random bets are always legal for the room and the balance', () => {
  const below = seeded(7);
  for (const room of Object.values(ROOMS)) {
    for (const balance of [room.limits.min, room.limits.max, 3 * room.limits.max, 1_000_000_000]) {
      for (let i = 0; i < 200; i++) {
        const bets = randomLegalBets(room.limits, balance, below)!;
        expect(validateBets(bets, room.limits, balance)).toMatchObject({ ok: true });
        expect(new Set(bets.map((b) => b.sector)).size).toBeLessThanOrEqual(3);
      }
    }
  }
});

test('no bet when the balance is below the table minimum', () => {
  expect(randomLegalBets(ROOMS.vip.limits, ROOMS.vip.limits.min - 100, seeded(2))).toBeNull();
  expect(randomLegalBets(ROOMS['hall-1'].limits, 0, seeded(3))).toBeNull();
});

test('a balance of exactly the minimum gets the minimum bet', () => {
  const bets = randomLegalBets(ROOMS['hall-2'].limits, ROOMS['hall-2'].limits.min, seeded(1))!;
  expect(bets.reduce((a, b) => a + b.amount, 0)).toBe(ROOMS['hall-2'].limits.min);
});
