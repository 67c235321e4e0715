/**
 * What the pb-fair-2 verifier answers (FAIRNESS.md §B10): every failure code, the report of a
 * file with its rounds, its unsettled acceptances and, for a wallet table, its statement.
 */
import type { TransactionKind } from '../../wallet/transaction.ts';
import { DEALT_CODES, PLACEMENT_CODES, RECORD_CODES, type VerifyFailureOf, type VerifyReportOf } from './record-checks.ts';
import type { WalletOfShoe } from './records.ts';

/** Every pb-fair-2 failure code, in no particular order (FAIRNESS.md §B10 gives the check order). */
export const VERIFY_CODES = [
  ...RECORD_CODES,
  ...PLACEMENT_CODES,
  'bad_player_key',
  'player_key_mismatch',
  'opening_balance_mismatch',
  'bad_player_signature',
  'request_mismatch',
  'bad_client_seed',
  'bad_cut',
  'round_mismatch',
  'round_after_cut_card',
  'round_over_limit',
  'balance_mismatch',
  'bets_invalid',
  'bad_secret',
  'lock_mismatch',
  ...DEALT_CODES,
  'payout_mismatch',
  'stake_mismatch',
  'cut_card_mismatch',
  'void_too_early',
  'unsettled_acceptance',
  'bad_server_seed',
  'commitment_mismatch',
  'round_count_mismatch',
  'closing_balance_mismatch',
  'reveal_reason_mismatch',
  'reveal_too_early',
  'transfer_in_round',
  'bad_transfer',
  'duplicate_transfer',
  'transfer_overdrawn',
  // wallet mode (§B15)
  'bad_wallet',
  'unknown_currency',
  'wallet_mismatch',
  'missing_transaction',
  'unexpected_transaction',
  'attempt_mismatch',
  'transaction_id_mismatch',
  'debit_amount_mismatch',
  'debit_balance_mismatch',
  'credit_amount_mismatch',
  'rollback_amount_mismatch',
] as const;
export type VerifyCode = (typeof VERIFY_CODES)[number];

export interface RoundStatus {
  shoe: number;
  round: number;
  status: 'verified' | 'pending' | 'voided' | 'unsettled' | 'failed';
  code?: VerifyCode;
}

export type VerifyFailure = VerifyFailureOf<VerifyCode>;

export interface Unsettled {
  shoe: number;
  round: number;
  /** Index of the acceptance in `records`, and its hash. */
  index: number;
  acceptance: string;
}

export interface VerifyReport extends VerifyReportOf<VerifyCode> {
  version: 'pb-fair-2';
  rounds: RoundStatus[];
  /** Accepted rounds that no receipt or void answers (the operator owes them). */
  unsettled: Unsettled[];
  /** A wallet table only (§B15): its wallet and every wallet transaction its records name, to hold against the casino statement. */
  wallet?: WalletStatement;
}

/** A wallet table's transactions as the verifier checked them, in record order (up to the first failure). */
export interface WalletStatement extends WalletOfShoe {
  transactions: WalletStatementLine[];
}

/** One wallet transaction of a record: what the casino statement should show for it. */
export interface WalletStatementLine {
  shoe: number;
  round: number;
  /** `<table>/<shoe>/<round>`: the round id the wallet was sent (WALLET.md §3). */
  roundId: string;
  /** The debit's attempt, whose ids the round's transactions carry. */
  attempt: number;
  kind: TransactionKind;
  transaction: string;
  /** Minor units of the table's currency. */
  amount: number;
  /** The amount in the currency's own digits (formatAmount): "25.00" EUR, "1500" JPY, "0.250" BHD. */
  formatted: string;
  /** A shared table's movement (§B15, "Shared tables"): its transfer id; `roundId` is then the shared round, `<sharedTable>/<sharedShoe>/<sharedRound>`. */
  transfer?: string;
}

export interface VerifyOptions {
  /** The player's own key (`x`): every commitment must name it. */
  playerKey?: string;
}
