/**
 * The shared table session's tagged states (shared-table-session.ts), so that what belongs
 * together is written together and an impossible mix cannot be: the player's bet of the table's
 * round (none, being sent, accepted) and a dealt round waiting for its other half before it is
 * drawn (the player's settlement after its deal, or a settlement that came before its deal).
 */
import type { SharedDeal, SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { signSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import type { sharedBetRequest } from '../../shared/fairness/pb-shared-1/requests.ts';
import type { Bet } from '../../shared/table.ts';

export type SignedBet = Awaited<ReturnType<typeof signSharedRequest<ReturnType<typeof sharedBetRequest>>>>;

/** The player's accepted bet of a round: its chips and what they stake. */
export interface AcceptedBet {
  kind: 'accepted';
  shoe: number;
  round: number;
  bets: Bet[];
  stake: number;
}

/**
 * The player's bet of a round: none; being sent (signed, or still being signed: `request` null),
 * sent again as is after a reconnect, and at most once more after a `start_required`
 * (`restarted`); or accepted by the table (locked until its deal).
 */
export type RoundBet =
  { kind: 'none' } | { kind: 'sending'; shoe: number; round: number; bets: Bet[]; request: SignedBet | null; restarted: boolean } | AcceptedBet;

export const NO_BET: RoundBet = { kind: 'none' };

/**
 * A round dealt for all, not drawn yet because its other half is missing: the deal of a round the
 * player has a bet in, waiting (until `timer`) for the player's settlement that follows it; or a
 * settlement that came before its deal.
 */
export type DealWait =
  | { kind: 'none' }
  | { kind: 'deal'; deal: SignedShared<SharedDeal>; mine: AcceptedBet; timer: ReturnType<typeof setTimeout> }
  | { kind: 'settlement'; settlement: SignedShared<SharedSettlement> };

export const NO_WAIT: DealWait = { kind: 'none' };
