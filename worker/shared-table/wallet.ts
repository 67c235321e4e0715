/**
 * The session's side of the money protocol with shared tables (API.md "Shared tables:
 * money"). A player's balance stays in their own session object (`Table`); a shared table
 * (`SharedTable`) moves it only through `Table.sharedTransfer` (a bet's debit) and
 * `Table.sharedTransferBatch` (what it owes the session, several in one call), each transfer named
 * by an id the table derives from (table, shoe, round, player, purpose). There is no transaction
 * spanning the two objects, so each side keeps its half:
 *
 * - here, the transfer id is written in the SAME transaction as the balance change, with its
 *   outcome (applied, or refused for lack of funds), in `shared_transfers` (its primary key, a
 *   WITHOUT ROWID table: the exactly-once lookup is one indexed read, the outcome one row
 *   written). An applied transfer also writes its signed `transfer` record into the session's
 *   pb-fair-2 chain (FAIRNESS.md §B14), which carries the balance after it: two rows in all. So
 *   the private transcript states every movement and its balances stay continuous. A transfer id seen again
 *   gets the stored outcome and changes nothing. Retrying is always safe;
 * - the table writes the transfer as pending before asking, and as settled when it has the answer
 *   (shared-table/transfers.ts); until then it asks again on its next alarm.
 *
 * This module holds the rules (pure); session/store.ts the rows; session/shared-table-money.ts the order of the steps.
 */
import { balanceAfterTransfer, type TransferAsk, transferShapeError } from '../../shared/index.ts';
import type { TransferRefusalCode } from '../../shared/wire/shared-table-socket.ts';

/** One movement of a player's money asked by a shared table (its table, shoe and round, why, how much). */
export type WalletTransfer = TransferAsk;

export type TransferOutcome =
  /** `currency`: a wallet-mode session's (its lost bets then owe a zero credit). */
  | { ok: true; id: string; balance: number; replayed: boolean; currency?: string }
  | {
      ok: false;
      id: string;
      code: TransferRefusalCode;
      message: string;
      balance?: number;
      replayed?: boolean;
    };

/** Transfers one `sharedTransferBatch` call takes, at most (a session rarely owes more than a few). */
export const SHARED_TRANSFER_BATCH = 32;

/** Answers that record nothing on the session's side: the table keeps the transfer pending and asks again. */
export const RETRY_LATER: ReadonlySet<string> = new Set(['session_busy']);

/** A transfer's stored outcome: whether it was applied, and the balance it left (refused: the balance then). */
export interface StoredTransfer {
  applied: boolean;
  balanceAfter: number;
}

/** Why `t` is not a transfer a session can apply (`bad_transfer`), or null. `wallet`: a wallet-mode session's, where a credit may be 0. */
export function transferError(t: WalletTransfer, wallet = false): string | null {
  if (typeof t !== 'object' || t === null) return 'a transfer id is 16–64 lowercase hex characters';
  return transferShapeError(t, wallet) ?? (typeof t.table === 'string' && t.table.length > 0 ? null : 'a transfer names its shared table');
}

/** What `t` does to `balance`: applied with the balance after it, or refused (a debit the balance does not cover). */
export function decideTransfer(t: WalletTransfer, balance: number): StoredTransfer {
  const after = balanceAfterTransfer(t.kind, t.amount, balance);
  return after === null ? { applied: false, balanceAfter: balance } : { applied: true, balanceAfter: after };
}

/** The answer for `t` given its stored (or just decided) outcome. */
export function transferOutcome(t: WalletTransfer, stored: StoredTransfer, replayed: boolean): TransferOutcome {
  if (stored.applied) return { ok: true, id: t.id, balance: stored.balanceAfter, replayed };
  const balance = stored.balanceAfter;
  return { ok: false, id: t.id, code: 'insufficient_funds', message: `the balance (${balance}) does not cover a stake of ${t.amount}`, balance, replayed };
}
