/**
 * The reference wallet's ledger (WALLET.md, as an operator implements it): one account per player
 * in the currency of its first call, every transaction kept by id with its body and its first
 * answer, so a replay gets that answer back and a different body under the same id is refused.
 * Each call is one SQLite transaction: a crash (even SIGKILL) leaves it applied entirely or not at
 * all, and a restart on the same file finds the same ledger.
 */
import type { DatabaseSync } from 'node:sqlite';
import { sameCall, type WalletAnswer, type WalletCall, type WalletOk, type WalletRefusal } from '../../shared/wallet/calls.ts';

/** A transaction's state as `GET /players/:id` shows it. */
export type TransactionState =
  /** The money moved (a debit still standing, a credit paid, a rollback that gave a stake back). */
  | 'applied'
  /** Refused: nothing moved. */
  | 'refused'
  /** A debit a rollback undid. */
  | 'rolled_back'
  /** A rollback with nothing to give back (the debit was never seen, or was refused): the debit's id is closed. */
  | 'closed';

export interface LedgerTransaction {
  id: string;
  kind: WalletCall['kind'];
  amount: number;
  state: TransactionState;
}

/**
 * What a player may do: `active` plays; `blocked` (self-excluded, suspended) and `limit_reached`
 * (an operator limit such as a deposit or loss limit) have every debit refused with that code,
 * while credits and rollbacks still apply, since they are owed.
 */
export type PlayerStatus = 'active' | 'blocked' | 'limit_reached';
export const PLAYER_STATUSES: readonly PlayerStatus[] = ['active', 'blocked', 'limit_reached'];

export interface LedgerOptions {
  /** Minor units a player unknown to the wallet starts with. */
  startingBalance: number;
  /** Whether a call for an unknown player opens an account (true), or is refused with `unknown_player`. */
  openUnknownPlayers: boolean;
}

export interface PlayerView {
  playerId: string;
  currency: string;
  balance: number;
  transactions: LedgerTransaction[];
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  player_id TEXT PRIMARY KEY,
  currency TEXT NOT NULL,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  status TEXT NOT NULL DEFAULT 'active'
) STRICT;
CREATE TABLE IF NOT EXISTS transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  player_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  debit_id TEXT,
  body TEXT NOT NULL,
  answer TEXT NOT NULL,
  state TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS transactions_player ON transactions (player_id, seq);
CREATE TABLE IF NOT EXISTS closed_debits (id TEXT PRIMARY KEY, rollback_id TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, seen_at INTEGER NOT NULL) STRICT;
`;

interface TxRow {
  id: string;
  kind: string;
  player_id: string;
  amount: number;
  debit_id: string | null;
  body: string;
  answer: string;
  state: string;
}

interface AccountRow {
  player_id: string;
  currency: string;
  balance: number;
  status: PlayerStatus;
}

export class WalletLedger {
  readonly #db: DatabaseSync;
  readonly #options: LedgerOptions;

  constructor(db: DatabaseSync, options: LedgerOptions) {
    this.#db = db;
    this.#options = options;
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    db.exec(SCHEMA);
  }

  #inTransaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /**
   * Whether a request nonce is new; records it if so. Nonces older than `keepSeconds` are dropped:
   * their timestamps are outside the window anyway.
   */
  acceptNonce(nonce: string, nowSeconds: number, keepSeconds: number): boolean {
    return this.#inTransaction(() => {
      this.#db.prepare('DELETE FROM nonces WHERE seen_at < ?').run(nowSeconds - keepSeconds);
      const seen = this.#db.prepare('SELECT 1 FROM nonces WHERE nonce = ?').get(nonce);
      if (seen) return false;
      this.#db.prepare('INSERT INTO nonces (nonce, seen_at) VALUES (?, ?)').run(nonce, nowSeconds);
      return true;
    });
  }

  /** The player's account; opened on first use unless unknown players are refused. */
  #account(playerId: string, currency: string): AccountRow | undefined {
    const row = this.#db.prepare('SELECT * FROM accounts WHERE player_id = ?').get(playerId) as AccountRow | undefined;
    if (row || !this.#options.openUnknownPlayers) return row;
    this.#db.prepare('INSERT INTO accounts (player_id, currency, balance) VALUES (?, ?, ?)').run(playerId, currency, this.#options.startingBalance);
    return { player_id: playerId, currency, balance: this.#options.startingBalance, status: 'active' };
  }

  #setBalance(playerId: string, balance: number): void {
    this.#db.prepare('UPDATE accounts SET balance = ? WHERE player_id = ?').run(balance, playerId);
  }

  #tx(id: string): TxRow | undefined {
    return this.#db.prepare('SELECT * FROM transactions WHERE id = ?').get(id) as TxRow | undefined;
  }

  #record(call: Exclude<WalletCall, { kind: 'balance' }>, answer: WalletOk | WalletRefusal, state: TransactionState): void {
    const debitId = call.kind === 'debit' ? null : call.debitTransactionId;
    this.#db
      .prepare('INSERT INTO transactions (id, kind, player_id, amount, debit_id, body, answer, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(call.transactionId, call.kind, call.playerId, call.amount, debitId, JSON.stringify(call), JSON.stringify(answer), state);
  }

  /**
   * Opens or changes a player's account (development only: how tests and the demo set a balance,
   * block a player or put them at a limit). Unset fields keep their value, or the defaults for a
   * new player.
   */
  setPlayer(playerId: string, fields: { currency: string; balance?: number; status?: PlayerStatus }): PlayerView {
    this.#inTransaction(() => {
      const row = this.#db.prepare('SELECT * FROM accounts WHERE player_id = ?').get(playerId) as AccountRow | undefined;
      const balance = fields.balance ?? row?.balance ?? this.#options.startingBalance;
      const status = fields.status ?? row?.status ?? 'active';
      this.#db
        .prepare(
          'INSERT INTO accounts (player_id, currency, balance, status) VALUES (?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET currency = excluded.currency, balance = excluded.balance, status = excluded.status',
        )
        .run(playerId, fields.currency, balance, status);
    });
    return this.player(playerId)!;
  }

  /**
   * Applies one checked call and returns its answer. `asDuplicate`: answer as if the call had come
   * twice (the first answer, wrapped as a duplicate), for fault injection.
   */
  apply(call: WalletCall, asDuplicate = false): WalletAnswer {
    return this.#inTransaction(() => {
      if (call.kind === 'balance') {
        const account = this.#account(call.playerId, call.currency);
        if (!account) return refusal('unknown_player', `this wallet has no player ${call.playerId}`);
        if (account.currency !== call.currency) return refusal('wrong_currency', `player ${call.playerId} plays in ${account.currency}`, account.balance);
        return { status: 'ok', currency: account.currency, balance: account.balance };
      }
      const earlier = this.#tx(call.transactionId);
      if (earlier) {
        const first = JSON.parse(earlier.answer) as WalletOk | WalletRefusal;
        if (!sameCall(JSON.parse(earlier.body) as WalletCall, call)) {
          return refusal('transaction_conflict', `transaction ${call.transactionId} was already made with another body`);
        }
        return { status: 'duplicate', code: 'duplicate', original: first };
      }
      const answer = this.#applyNew(call);
      return asDuplicate ? { status: 'duplicate', code: 'duplicate', original: answer } : answer;
    });
  }

  #applyNew(call: Exclude<WalletCall, { kind: 'balance' }>): WalletOk | WalletRefusal {
    const done = (answer: WalletOk | WalletRefusal, state: TransactionState) => {
      this.#record(call, answer, state);
      return answer;
    };
    const account = this.#account(call.playerId, call.currency);
    if (!account) return done(refusal('unknown_player', `this wallet has no player ${call.playerId}`), 'refused');
    const okAnswer = (balance: number, code?: 'unknown_transaction'): WalletOk => ({
      status: 'ok',
      transactionId: call.transactionId,
      currency: account.currency,
      balance,
      ...(code ? { code } : {}),
    });
    if (account.currency !== call.currency)
      return done(refusal('wrong_currency', `player ${call.playerId} plays in ${account.currency}, not ${call.currency}`, account.balance), 'refused');
    if (call.kind === 'debit') {
      if (this.#db.prepare('SELECT 1 FROM closed_debits WHERE id = ?').get(call.transactionId)) {
        return done(refusal('rolled_back', `debit ${call.transactionId} was rolled back before it arrived`, account.balance), 'refused');
      }
      if (account.status === 'blocked') return done(refusal('player_blocked', `player ${call.playerId} may not bet`, account.balance), 'refused');
      if (account.status === 'limit_reached')
        return done(refusal('limit_reached', `player ${call.playerId} has reached a limit set with the casino`, account.balance), 'refused');
      if (account.balance < call.amount)
        return done(refusal('insufficient_funds', `the balance ${account.balance} is less than ${call.amount}`, account.balance), 'refused');
      this.#setBalance(call.playerId, account.balance - call.amount);
      return done(okAnswer(account.balance - call.amount), 'applied');
    }
    const debit = this.#tx(call.debitTransactionId);
    if (call.kind === 'credit') {
      if (!debit || debit.kind !== 'debit' || debit.player_id !== call.playerId) {
        return done(refusal('unknown_transaction', `no debit ${call.debitTransactionId} of player ${call.playerId} to credit`, account.balance), 'refused');
      }
      if (debit.state === 'rolled_back')
        return done(refusal('rolled_back', `debit ${call.debitTransactionId} was rolled back; its round pays nothing`, account.balance), 'refused');
      if (debit.state !== 'applied')
        return done(refusal('unknown_transaction', `debit ${call.debitTransactionId} was refused; there is nothing to credit`, account.balance), 'refused');
      const other = this.#db
        .prepare("SELECT id FROM transactions WHERE kind = 'credit' AND debit_id = ? AND state = 'applied'")
        .get(call.debitTransactionId) as { id: string } | undefined;
      if (other)
        return done(refusal('transaction_conflict', `debit ${call.debitTransactionId} was already credited by ${other.id}`, account.balance), 'refused');
      this.#setBalance(call.playerId, account.balance + call.amount);
      return done(okAnswer(account.balance + call.amount), 'applied');
    }
    // rollback
    if (!debit) {
      this.#db.prepare('INSERT OR IGNORE INTO closed_debits (id, rollback_id) VALUES (?, ?)').run(call.debitTransactionId, call.transactionId);
      return done(okAnswer(account.balance, 'unknown_transaction'), 'closed');
    }
    if (debit.kind !== 'debit' || debit.player_id !== call.playerId) {
      return done(refusal('transaction_conflict', `${call.debitTransactionId} is not a debit of player ${call.playerId}`, account.balance), 'refused');
    }
    if (debit.state === 'refused') return done(okAnswer(account.balance), 'closed');
    if (debit.amount !== call.amount)
      return done(refusal('transaction_conflict', `debit ${call.debitTransactionId} was ${debit.amount}, not ${call.amount}`, account.balance), 'refused');
    const credited = this.#db
      .prepare("SELECT id FROM transactions WHERE kind = 'credit' AND debit_id = ? AND state = 'applied'")
      .get(call.debitTransactionId) as { id: string } | undefined;
    if (credited)
      return done(refusal('transaction_conflict', `debit ${call.debitTransactionId} was already settled by credit ${credited.id}`, account.balance), 'refused');
    this.#db.prepare("UPDATE transactions SET state = 'rolled_back' WHERE id = ?").run(call.debitTransactionId);
    this.#setBalance(call.playerId, account.balance + debit.amount);
    return done(okAnswer(account.balance + debit.amount), 'applied');
  }

  /** A player's account and transactions in order, or undefined for a player the wallet never saw. */
  player(playerId: string): PlayerView | undefined {
    const account = this.#db.prepare('SELECT * FROM accounts WHERE player_id = ?').get(playerId) as AccountRow | undefined;
    if (!account) return undefined;
    const rows = this.#db
      .prepare('SELECT id, kind, amount, state FROM transactions WHERE player_id = ? ORDER BY seq')
      .all(playerId) as unknown as LedgerTransaction[];
    return {
      playerId,
      currency: account.currency,
      balance: account.balance,
      transactions: rows.map((r) => ({ id: r.id, kind: r.kind, amount: r.amount, state: r.state })),
    };
  }
}

function refusal(code: WalletRefusal['code'], message: string, balance?: number): WalletRefusal {
  return { status: 'refused', code, message, ...(balance === undefined ? {} : { balance }) };
}
