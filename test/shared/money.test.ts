import { describe, expect, it } from 'vitest';
import { displayStep, roundForDisplay } from '../../shared/money.ts';

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
});
