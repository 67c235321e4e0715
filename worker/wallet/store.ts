/**
 * Typed reads and writes of a wallet-mode session's own rows (schema version 7 in
 * session/schema.ts): `wallet_session` and `wallet_calls`. Synchronous; the caller groups the
 * writes of one change into one transaction. Every statement goes through the table's store, so
 * its rows are counted with the table's (`Table.stats()`).
 */
import type { Language } from '../../shared/languages.ts';
import type { TableLimits } from '../../shared/table.ts';
import type { LimitsState, PlayerLimits, SessionEndCode, SharedTotals } from '../../shared/wallet/responsible.ts';
import type { TransactionKind } from '../../shared/wallet/transaction.ts';
import type { TableStore } from '../session/store.ts';
import type { WalletInit } from './calls-view.ts';

/** The session's wallet: who, where, the limits from the launch, and the limits' state not derived from the records. */
export interface WalletSessionRow extends WalletInit {
  /** The wallet's answer to the balance call that opened the session. */
  openingBalance: number;
  startedAt: string;
  lastRealityCheckAt: string;
  realityCheckPending: boolean;
  ended: { code: SessionEndCode; at: string } | null;
}

/**
 * A stored call's state: a debit is `sending` (written before it goes out), then `acknowledged`,
 * `refused` or `unknown` (its rollback owed); a credit or rollback is `pending` in the outbox until
 * `acknowledged`, or `stuck` on a refusal no retry changes.
 */
export type StoredCallState = 'sending' | 'acknowledged' | 'refused' | 'unknown' | 'pending' | 'stuck';

/**
 * One wallet call. A shared table's (shared-transfer.ts) has shoe 0, which no private shoe is: its
 * `round` numbers the session's shared debits (1, 2, …: the wallet's round id `<session>/0/<round>`),
 * its attempt is 1, and a shared debit keeps its transfer id in `debitTxn` (which a debit has no use for).
 */
export interface StoredCall {
  txn: string;
  kind: TransactionKind;
  /** The shoe and the record's round (a refused debit: the round it was for); 0 and the shared debit's number at a shared table. */
  shoe: number;
  round: number;
  /** The number of the debit in its shoe (its transaction ids' round); a credit or rollback: its debit's. */
  attempt: number;
  roundId: string;
  amount: number;
  /** A credit's or rollback's debit; a shared table's debit: its transfer id. */
  debitTxn: string | null;
  state: StoredCallState;
  /** Times sent. */
  attempts: number;
  /** Outbox: when to try again (ms). */
  nextTryAt: number | null;
  code: string | null;
  /** The wallet's balance in its answer. */
  balance: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The shoe of a session's shared-table calls (shared-transfer.ts): no private shoe is 0. */
export const SHARED_SHOE = 0;

type Row = Record<string, SqlStorageValue>;

const text = (v: SqlStorageValue | undefined): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: SqlStorageValue | undefined): number | null => (v === null || v === undefined ? null : Number(v));

function callOf(r: Row): StoredCall {
  return {
    txn: String(r.txn),
    kind: String(r.kind) as TransactionKind,
    shoe: Number(r.shoe),
    round: Number(r.round),
    attempt: Number(r.attempt),
    roundId: String(r.round_id),
    amount: Number(r.amount),
    debitTxn: text(r.debit_txn),
    state: String(r.state) as StoredCallState,
    attempts: Number(r.attempts),
    nextTryAt: num(r.next_try_at),
    code: text(r.code),
    balance: num(r.balance),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

export class WalletStore {
  readonly #store: TableStore;
  /** The highest `answered_n` (the order of the wallet's answered balances), read once per instance. */
  #answered: number | null = null;
  /** The session's wallet row (null: play money), read once per instance; rewritten only through here. */
  #session: WalletSessionRow | null | undefined;

  constructor(store: TableStore) {
    this.#store = store;
  }

  /** Whether this database has the wallet tables and a wallet row: false for play-money sessions. */
  session(): WalletSessionRow | null {
    if (this.#session !== undefined) return this.#session;
    const has = this.#store.run(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wallet_session'`).length > 0;
    const r = has ? this.#store.run(`SELECT * FROM wallet_session WHERE id = 1`)[0] : undefined;
    this.#session = r
      ? {
          operator: String(r.operator),
          playerId: String(r.player_id),
          currency: String(r.currency),
          lang: String(r.lang) as Language,
          returnUrl: String(r.return_url),
          playerLimits: JSON.parse(String(r.player_limits)) as PlayerLimits,
          tableLimits: JSON.parse(String(r.table_limits)) as TableLimits,
          openingBalance: Number(r.opening_balance),
          startedAt: String(r.started_at),
          lastRealityCheckAt: String(r.last_reality_check_at),
          realityCheckPending: Number(r.reality_check_pending) === 1,
          ended: r.ended_code === null ? null : { code: String(r.ended_code) as SessionEndCode, at: String(r.ended_at) },
        }
      : null;
    // Remembered either way (a play-money session reads this once per instance); creation forgets it.
    return this.#session;
  }

  /** Forgets what was read (a transaction that wrote it may have rolled back). */
  forget(): void {
    this.#session = undefined;
    this.#answered = null;
  }

  insertSession(w: WalletSessionRow): void {
    this.#store.run(
      `INSERT INTO wallet_session (id, operator, player_id, currency, lang, return_url, player_limits, table_limits, opening_balance,
                                   started_at, last_reality_check_at, reality_check_pending)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      w.operator,
      w.playerId,
      w.currency,
      w.lang,
      w.returnUrl,
      JSON.stringify(w.playerLimits),
      JSON.stringify(w.tableLimits),
      w.openingBalance,
      w.startedAt,
      w.lastRealityCheckAt,
    );
    this.#session = undefined;
  }

  /** Writes the limits' own state (the reality check, the end): one row, only when it changed. */
  setLimitsState(state: Pick<LimitsState, 'lastRealityCheckAt' | 'realityCheckPending' | 'ended'>): void {
    const iso = (ms: number) => new Date(ms).toISOString();
    this.#store.run(
      `UPDATE wallet_session SET last_reality_check_at = ?, reality_check_pending = ?, ended_code = ?, ended_at = ? WHERE id = 1`,
      iso(state.lastRealityCheckAt),
      state.realityCheckPending ? 1 : 0,
      state.ended?.code ?? null,
      state.ended ? iso(state.ended.at) : null,
    );
    this.#session = undefined;
  }

  /** The number the next shared-table debit takes (its round at shoe 0): one more than every one sent, whatever became of them. */
  nextSharedRound(): number {
    const r = this.#store.run<{ n: number }>(`SELECT COALESCE(MAX(round), 0) AS n FROM wallet_calls WHERE kind = 'debit' AND shoe = ?`, SHARED_SHOE)[0]!;
    return Number(r.n) + 1;
  }

  /** What the session's applied shared-table transfers moved, by kind (the responsible-gaming totals count them). */
  sharedTotals(): SharedTotals {
    const totals: SharedTotals = { debited: 0, credited: 0, refunded: 0 };
    for (const r of this.#store.run(`SELECT kind, SUM(amount) AS n FROM shared_transfers WHERE applied = 1 GROUP BY kind`)) {
      const n = Number(r.n);
      if (r.kind === 'debit') totals.debited = n;
      else if (r.kind === 'credit') totals.credited = n;
      else totals.refunded = n;
    }
    return totals;
  }

  /** The number the next debit of `shoe` takes: one more than every debit sent in it, whatever became of them. */
  nextAttempt(shoe: number): number {
    const r = this.#store.run<{ n: number }>(`SELECT COALESCE(MAX(attempt), 0) AS n FROM wallet_calls WHERE kind = 'debit' AND shoe = ?`, shoe)[0]!;
    return Number(r.n) + 1;
  }

  insertCall(c: Omit<StoredCall, 'balance' | 'updatedAt' | 'code'> & { code?: string | null }): void {
    this.#store.run(
      `INSERT INTO wallet_calls (txn, kind, shoe, round, attempt, round_id, amount, debit_txn, state, attempts, next_try_at, code, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.txn,
      c.kind,
      c.shoe,
      c.round,
      c.attempt,
      c.roundId,
      c.amount,
      c.debitTxn,
      c.state,
      c.attempts,
      c.nextTryAt,
      c.code ?? null,
      c.createdAt,
      c.createdAt,
    );
  }

  /**
   * A call's new state after an answer (or after its outcome became unknown). `balance`: the
   * wallet's answered balance, which becomes the session's balance (the newest answer wins).
   */
  settleCall(
    txn: string,
    change: { state: StoredCallState; attempts?: number; nextTryAt?: number | null; code?: string | null; balance?: number | null; at: string },
  ): void {
    const n = change.balance === undefined || change.balance === null ? null : this.#nextAnswered();
    this.#store.run(
      `UPDATE wallet_calls SET state = ?, attempts = COALESCE(?, attempts), next_try_at = ?, code = ?, balance = COALESCE(?, balance),
                               answered_n = COALESCE(?, answered_n), updated_at = ? WHERE txn = ?`,
      change.state,
      change.attempts ?? null,
      change.nextTryAt ?? null,
      change.code ?? null,
      change.balance ?? null,
      n,
      change.at,
      txn,
    );
  }

  #nextAnswered(): number {
    this.#answered ??= Number(this.#store.run<{ n: number }>(`SELECT COALESCE(MAX(answered_n), 0) AS n FROM wallet_calls`)[0]!.n);
    return ++this.#answered;
  }

  /** The wallet's newest answered balance: of its newest answer, or the opening balance. */
  lastBalance(): number {
    const r = this.#store.run(`SELECT balance FROM wallet_calls WHERE answered_n IS NOT NULL ORDER BY answered_n DESC LIMIT 1`)[0];
    return r ? Number(r.balance) : this.session()!.openingBalance;
  }

  call(txn: string): StoredCall | null {
    const r = this.#store.run(`SELECT * FROM wallet_calls WHERE txn = ?`, txn)[0];
    return r ? callOf(r) : null;
  }

  /** Debits written and never answered: after a restart, or a failure between the call and its write, their outcome is unknown. */
  sending(): StoredCall[] {
    return this.#store.run(`SELECT * FROM wallet_calls WHERE state = 'sending'`).map(callOf);
  }

  /** The outbox: credits and rollbacks not acknowledged (`pending`, retried; `stuck`, kept for reconciliation). */
  unacknowledged(): StoredCall[] {
    return this.#store.run(`SELECT * FROM wallet_calls WHERE state IN ('pending', 'stuck') ORDER BY created_at, txn`).map(callOf);
  }

  /** The outbox rows due by `now`, oldest due first. */
  due(now: number): StoredCall[] {
    return this.#store.run(`SELECT * FROM wallet_calls WHERE state = 'pending' AND next_try_at <= ? ORDER BY next_try_at`, now).map(callOf);
  }

  /** When the outbox next needs the alarm (ms), or null. */
  nextDue(): number | null {
    return num(this.#store.run(`SELECT MIN(next_try_at) AS at FROM wallet_calls WHERE state = 'pending'`)[0]?.at);
  }

  /** Every call created in [from, to) (ISO times), oldest first. */
  calls(from: string, to: string): StoredCall[] {
    return this.#store.run(`SELECT * FROM wallet_calls WHERE created_at >= ? AND created_at < ? ORDER BY created_at, kind, txn`, from, to).map(callOf);
  }

  /** The rollbacks written for debits (to show a debit as rolled back). */
  rolledBackDebits(): Set<string> {
    return new Set(this.#store.run(`SELECT debit_txn FROM wallet_calls WHERE kind = 'rollback'`).map((r) => String(r.debit_txn)));
  }
}
