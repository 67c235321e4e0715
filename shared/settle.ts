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
 * Winnings on a winning bet. Banker bets are multiples of the table step (a multiple of 20), so
 * 19/20 is whole; anything else is refused rather than rounded.
 */
export function winnings(box: Box, amount: number): number {
  const [num, den] = PAYOUTS[box];
  const scaled = amount * num;
  if (scaled % den !== 0) throw new RangeError(`a ${box} bet of ${amount} minor units does not pay a whole amount`);
  return scaled / den;
}

export function settle(bets: readonly Bet[], outcome: Outcome): Settlement {
  let staked = 0;
  let returned = 0;
  const settled = bets.map((bet): SettledBet => {
    const result = betResult(bet.box, outcome);
    const back = result === 'win' ? bet.amount + winnings(bet.box, bet.amount) : result === 'push' ? bet.amount : 0;
    staked += bet.amount;
    returned += back;
    return { sector: bet.sector, box: bet.box, amount: bet.amount, result, returned: back, net: back - bet.amount };
  });
  return { bets: settled, staked, returned, net: returned - staked };
}
