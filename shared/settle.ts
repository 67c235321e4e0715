/**
 * Settlement in integer minor units (RULES.md "Bets and payouts"): Player 1:1, Banker 19:20
 * (1:1 less 5% commission), Tie 8:1; Player and Banker bets are returned on a tie.
 */
import type { Outcome } from './round.ts';
import type { Bet, Box } from './table.ts';

/** Winnings per unit staked, as a fraction: [numerator, denominator]. */
export const PAYOUTS: Readonly<Record<Box, readonly [number, number]>> = {
  player: [1, 1],
  banker: [19, 20],
  tie: [8, 1],
};

export type BetResult = 'win' | 'lose' | 'push';

export interface SettledBet extends Bet {
  result: BetResult;
  /** What goes back to the player: stake plus winnings on a win, the stake on a push, 0 on a loss. */
  returned: number;
  /** returned − amount. */
  net: number;
}

export interface Settlement {
  bets: SettledBet[];
  staked: number;
  returned: number;
  net: number;
}

export function betResult(box: Box, outcome: Outcome): BetResult {
  if (box === outcome) return 'win';
  if (outcome === 'tie') return 'push';
  return 'lose';
}

/**
 * How a win that is not a whole number of minor units is paid (only Banker's 19:20 can fall
 * between two; Player 1:1 and Tie 8:1 are always whole):
 * - `exact`, play money: never rounded. Its minor unit is a thousandth and every room's step is a
 *   multiple of 20, so 19/20 of a legal bet is whole; an amount for which it is not is refused
 *   (RangeError), because reaching it means a bet skipped validation.
 * - `round-down`, wallet mode, where a minor unit is the currency's own (ISO 4217: 1 yen, 1 cent,
 *   1 fils): the winnings are ⌊amount × 19 / 20⌋, rounded down to a whole minor unit, so the 5%
 *   commission, amount − winnings, is rounded up: a 15 JPY Banker win pays 14 (commission 1, not
 *   0.75), a 1 JPY win pays 0. The house never pays a fraction it cannot hand over, and the player
 *   never loses a whole minor unit to rounding. Banker stakes that are multiples of 20 minor units
 *   pay exactly 95%.
 * This is the one function that pays: the engine, the signed records and the verifier all call
 * `settle` / `winnings`, so they cannot disagree on a rounding.
 */
export type CommissionRule = 'exact' | 'round-down';

/** Winnings on a winning bet (see CommissionRule for the Banker's commission when it is not whole). */
export function winnings(box: Box, amount: number, rule: CommissionRule = 'exact'): number {
  const [num, den] = PAYOUTS[box];
  const scaled = amount * num;
  if (scaled % den === 0) return scaled / den;
  if (rule === 'round-down') return Math.floor(scaled / den);
  throw new RangeError(`a ${box} bet of ${amount} minor units does not pay a whole amount`);
}

export function settle(bets: readonly Bet[], outcome: Outcome, rule: CommissionRule = 'exact'): Settlement {
  let staked = 0;
  let returned = 0;
  const settled = bets.map((bet): SettledBet => {
    const result = betResult(bet.box, outcome);
    const back = result === 'win' ? bet.amount + winnings(bet.box, bet.amount, rule) : result === 'push' ? bet.amount : 0;
    staked += bet.amount;
    returned += back;
    return { sector: bet.sector, box: bet.box, amount: bet.amount, result, returned: back, net: back - bet.amount };
  });
  return { bets: settled, staked, returned, net: returned - staked };
}
