/**
 * The widget's own view of a settled round: what the felt, the status line, the history and the
 * scoreboard show. It is not a record and carries no signature; it is built by pure functions
 * from the signed records that decided the round, and names them (`record`) so the history can
 * cite the one that holds the result.
 *
 * - A private table (pb-fair-2): the receipt holds the result, its acceptance holds the bets.
 * - A shared table (pb-shared-1): the deal holds the cards for all, the player's settlement (if
 *   it had a stake) holds its payouts and balance.
 */
import type { ReceiptCard, SettledFields } from '../shared/fairness/common/receipt-fields.ts';
import type { SharedDeal, SharedSettlement, SignedShared } from '../shared/fairness/pb-shared-1/records.ts';
import type { Acceptance, Receipt, Signed } from '../shared/fairness/pb-fair-2/records.ts';
import type { RoundFacts } from '../shared/round.ts';
import type { Bet } from '../shared/table.ts';

/** The signed record that holds a round's result, as the history's details cite it. */
export interface RoundRecordRef {
  /** Lowercase hex hash of the record. */
  hash: string;
  /** The hash the record chains to. */
  prev: string;
  /** The operator key that signed it. */
  keyId: string;
  issuedAt: string;
}

/** A dealt and settled round as the widget shows it. Amounts in minor units. */
export interface SettledRound extends RoundFacts, SettledFields {
  shoe: number;
  /** From 1 within the shoe. */
  round: number;
  /** The player's bets (none when the player only watched a shared table's round). */
  bets: Bet[];
  /** In dealt order: P, B, P, B, then the third cards, with their positions. */
  cards: ReceiptCard[];
  /** The cut card came out during this round. */
  cutCardOut: boolean;
  record: RoundRecordRef;
}

/** A private table's round: the receipt's result with the bets of the acceptance it follows. */
export function privateRound(acceptance: Acceptance, receipt: Signed<Receipt>): SettledRound {
  const { type, table, request, keyId, prev, issuedAt, ...dealt } = receipt.body;
  return { ...dealt, bets: acceptance.request.body.bets.map((b) => ({ ...b })), record: { hash: receipt.hash, prev, keyId, issuedAt } };
}

/** The settled rounds of a private table's records (each receipt after its acceptance), in round order. */
export function privateRounds(records: readonly Signed[]): SettledRound[] {
  const out: SettledRound[] = [];
  const accepted = new Map<string, Acceptance>();
  for (const r of records) {
    if (r.body.type === 'acceptance') accepted.set(r.hash, r.body);
    if (r.body.type === 'receipt') {
      const acceptance = accepted.get(r.body.prev);
      if (acceptance) out.push(privateRound(acceptance, r as Signed<Receipt>));
    }
  }
  return out;
}

/**
 * A shared table's round: the deal's cards for all, with the player's own bets and settlement when
 * it had a stake in it; a round without a settlement moves no money (`balance` before and after).
 */
export function sharedTableRound(deal: SignedShared<SharedDeal>, bets: readonly Bet[], settlement: SharedSettlement | null, balance: number): SettledRound {
  const { type, table, beacon, keyId, prev, issuedAt, ...dealt } = deal.body;
  const money: SettledFields = settlement
    ? {
        payouts: settlement.payouts,
        staked: settlement.staked,
        returned: settlement.returned,
        balanceBefore: settlement.balanceBefore,
        balanceAfter: settlement.balanceAfter,
      }
    : { payouts: [], staked: 0, returned: 0, balanceBefore: balance, balanceAfter: balance };
  return { ...dealt, ...money, bets: bets.map((b) => ({ ...b })), record: { hash: deal.hash, prev, keyId, issuedAt } };
}
