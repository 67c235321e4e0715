import { describe, expect, it } from 'vitest';
import { displayStep, displayedReturn, roundForDisplay } from '../../shared/money.ts';

describe('money for display', () => {
  it('has the unit of each currency in minor units', () => {
    expect([displayStep(0), displayStep(2), displayStep(3)]).toEqual([1000, 10, 1]);
  });

  it('rounds to the currency unit, halves away from zero, in integers', () => {
    // €995.595 (a Banker win on €0.10): a float would give 995.59 (995.595 is 995.5949… in binary).
    expect(roundForDisplay(995_595, 2)).toBe(995_600);
    expect(roundForDisplay(195, 2)).toBe(200);
    expect(roundForDisplay(95, 2)).toBe(100);
    expect(roundForDisplay(-5, 2)).toBe(-10);
    expect(roundForDisplay(5, 2)).toBe(10);
    expect(roundForDisplay(1_004, 2)).toBe(1_000);
    expect(roundForDisplay(0, 2)).toBe(0);
  });

  it('never shows a non-zero amount as zero: every amount is a whole number of 0.005', () => {
    for (let minor = 5; minor < 2_000; minor += 5) {
      expect(roundForDisplay(minor, 2)).toBeGreaterThan(0);
      expect(roundForDisplay(-minor, 2)).toBeLessThan(0);
    }
  });

  it('keeps every digit of a three-digit currency and rounds yen to whole units', () => {
    expect(roundForDisplay(995_595, 3)).toBe(995_595);
    expect(roundForDisplay(1_500, 0)).toBe(2_000);
    expect(roundForDisplay(2_500, 0)).toBe(3_000);
    expect(roundForDisplay(1_499, 0)).toBe(1_000);
  });

  it('shows a round’s net as the difference of its rounded returned and staked figures', () => {
    // 0.195 returned on 0.40 staked: €0.20 and €0.40, so net −€0.20 (the exact −0.205 alone rounds to −€0.21).
    expect(displayedReturn(195, 400, 2)).toEqual({ returned: 200, staked: 400, net: -200 });
    expect(roundForDisplay(195 - 400, 2)).toBe(-210);
    // 1.95 on 2.00, 0.195 on 0.10, and a half cent that the rounded figures show as even.
    expect(displayedReturn(1_950, 2_000, 2)).toEqual({ returned: 1_950, staked: 2_000, net: -50 });
    expect(displayedReturn(195, 100, 2)).toEqual({ returned: 200, staked: 100, net: 100 });
    expect(displayedReturn(195, 200, 2).net).toBe(0);
    // Every digit of a three-digit currency: the exact net.
    expect(displayedReturn(195, 400, 3)).toEqual({ returned: 195, staked: 400, net: -205 });
    // Yen: whole units.
    expect(displayedReturn(1_950, 1_000, 0)).toEqual({ returned: 2_000, staked: 1_000, net: 1_000 });
  });

  it('agrees with itself over every small round: returned − staked = net on screen', () => {
    for (let returned = 0; returned < 1_000; returned += 5)
      for (let staked = 100; staked < 600; staked += 100) {
        const shown = displayedReturn(returned, staked, 2);
        expect(shown.returned - shown.staked).toBe(shown.net);
        expect(shown.returned % 10).toBe(0);
      }
  });
});
