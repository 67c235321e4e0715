/**
 * Money as a player reads it. Amounts are held in minor units of a thousandth of the currency unit
 * (`MINOR_UNITS`, shared/table.ts), so that 5% of the smallest bet is whole; a currency shows
 * fewer digits than that (ISO 4217: JPY 0, EUR 2, BHD 3). The one display rule: round to the
 * currency's own unit, halves away from zero (the commercial rule, and Intl.NumberFormat's
 * default), in integers: 995 595 → 995 600 (€995.60), −5 → −10 (−€0.01), 195 → 200 (€0.20). A
 * non-zero amount never shows as zero, since every amount is a whole number of 0.005. The exact
 * figure stays in the records (the receipt details show it).
 */
import { MINOR_UNITS } from './table.ts';

/** Decimal digits of a minor unit: 3 for a thousandth. */
const MINOR_DIGITS = Math.round(Math.log10(MINOR_UNITS));

/** Minor units in one unit of a currency that shows `fractionDigits` digits (EUR 2 → 10, JPY 0 → 1000, BHD 3 → 1). */
export function displayStep(fractionDigits: number): number {
  const digits = Math.min(MINOR_DIGITS, Math.max(0, Math.floor(fractionDigits)));
  return 10 ** (MINOR_DIGITS - digits);
}

/** `minor` rounded to the currency's own unit (halves away from zero), still in minor units. */
export function roundForDisplay(minor: number, fractionDigits: number): number {
  const step = displayStep(fractionDigits);
  if (step === 1) return minor;
  const rounded = Math.floor((Math.abs(minor) + step / 2) / step) * step;
  return minor < 0 ? -rounded : rounded;
}

/** A round's money as the player reads it: each figure in the currency's own unit. */
export interface DisplayedReturn {
  /** What came back, rounded for display. */
  readonly returned: number;
  /** What was staked, rounded for display. */
  readonly staked: number;
  /** `returned − staked` of the two rounded figures, so the three always agree on screen. */
  readonly net: number;
}

/**
 * What a round returned and made, for display: the returned and staked amounts are rounded first
 * (roundForDisplay), then the net is the difference of the rounded figures. Rounding the exact net
 * instead can disagree with the figures beside it: 195 returned on 400 staked is €0.20 returned,
 * €0.40 staked, and net −€0.20 here, where the exact −205 alone would round to −€0.21.
 */
export function displayedReturn(returned: number, staked: number, fractionDigits: number): DisplayedReturn {
  const shownReturned = roundForDisplay(returned, fractionDigits);
  const shownStaked = roundForDisplay(staked, fractionDigits);
  return { returned: shownReturned, staked: shownStaked, net: shownReturned - shownStaked };
}
