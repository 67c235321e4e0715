/**
 * What every receipt version records of a round the same way: its cards (code, stack position,
 * hand, in dealt order) and what settling its bets did to the balance.
 */
import { type CardCode, cardCode } from '../../cards.ts';
import { dealtOrder, type Round } from '../../round.ts';
import type { Settlement, SettledBet } from '../../settle.ts';

/** One card of a receipt: its code, its index in the shoe's stack (after the cut), the hand it went to. */
export interface ReceiptCard {
  code: CardCode;
  position: number;
  hand: 'player' | 'banker';
}

/** What settling a round's bets did to the balance: the same fields in every receipt version. */
export interface SettledFields {
  /** From settle.ts, one per bet, same order. */
  payouts: SettledBet[];
  staked: number;
  returned: number;
  balanceBefore: number;
  /** balanceBefore − staked + returned. */
  balanceAfter: number;
}

/** The settlement's fields of a receipt, in the order receipts list them. */
export function settledFields(settlement: Settlement, balanceBefore: number): SettledFields {
  return {
    payouts: settlement.bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount, result: b.result, returned: b.returned, net: b.net })),
    staked: settlement.staked,
    returned: settlement.returned,
    balanceBefore,
    balanceAfter: balanceBefore - settlement.staked + settlement.returned,
  };
}

/** A round's cards in dealt order (P, B, P, B, [P3], [B3]) with their stack positions and hands. */
export function receiptCards(round: Round): ReceiptCard[] {
  return dealtOrder(round).map(({ card, hand }, i) => ({ code: cardCode(card), position: round.positions[i]!, hand }));
}
