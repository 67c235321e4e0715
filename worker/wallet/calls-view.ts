/**
 * What a wallet-mode session tells its operator (the operator routes of worker/http call the
 * `Table` RPCs `walletCalls`, `roundRecords` and read the session's `wallet` view): one row per
 * wallet call that moves money, in the shape `GET /api/operator/transactions` lists.
 */
import type { Language } from '../../shared/languages.ts';
import type { TableLimits } from '../../shared/table.ts';
import type { PlayerLimits } from '../../shared/wallet/responsible.ts';
import type { TransactionKind } from '../../shared/wallet/transaction.ts';

/**
 * Where one money call stands:
 * - `acknowledged`: the wallet applied it (an ok answer, or a duplicate of one);
 * - `pending`: not answered yet (a debit being sent; a credit or rollback in the outbox, retried);
 * - `refused`: the wallet refused it with `code` (a debit; or an owed call stuck for reconciliation);
 * - `rolled_back`: a debit whose outcome was unknown, or whose round did not complete, undone by
 *   its rollback (the rollback's own row says whether the wallet has acknowledged it).
 */
export type WalletCallState = 'acknowledged' | 'pending' | 'refused' | 'rolled_back';

/** One wallet call of a session (`Table.walletCalls(from, to)`). */
export interface WalletCallRow {
  /** `pbw1-…` (walletTransactionId). */
  transaction: string;
  kind: TransactionKind;
  /** `<sessionId>/<shoe>/<round>`: what the casino statement shows. */
  roundId: string;
  playerId: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  state: WalletCallState;
  /** How many times the call was sent. */
  attempts: number;
  /** ISO 8601, when the call was first written (before it was sent). */
  createdAt: string;
  /** ISO 8601, the last change of its state or of its attempts. */
  updatedAt: string;
  /** The wallet's refusal code, or the reason the outcome is unknown, when there is one. */
  code?: string;
}

/**
 * `Table.create(init)` in wallet mode (`CreateInit.wallet`): filled by the launch's redemption from
 * the launch and the operator's settings. `tableLimits` are the room's limits in the currency's
 * minor units (the commitment's `limits`).
 */
export interface WalletInit {
  operator: string;
  playerId: string;
  currency: string;
  lang: Language;
  returnUrl: string;
  playerLimits: PlayerLimits;
  tableLimits: TableLimits;
}
