/**
 * A shared table's wallet-mode seats (WALLET.md "Shared tables"): which sessions bet from an
 * operator's wallet, and the zero credits their lost bets owe. A wallet closes every debit with a
 * credit or a rollback, a lost round with a credit of 0 (as a private round's receipt does), while
 * a play-money session is asked nothing for a lost bet. The table's own `st_transfers` take only
 * positive amounts, so the zero credits have their own rows here, asked with the same exactly-once
 * rule (pending until the session's answer is recorded; the same id on every retry: the id a
 * credit of that bet would have, `sharedTransferId(…, 'credit')`).
 *
 * - `st_wallet_seats`: a session whose debit was applied by its wallet (written with the bet's
 *   acceptance), and its currency;
 * - `st_wallet_closes`: one zero credit per lost wallet bet, written with the deal that lost it.
 */

export interface WalletClose {
  id: string;
  session: string;
  shoe: number;
  round: number;
  /** The bet's player key: its debit's transfer id is derived from it. */
  player: string;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS st_wallet_seats (session TEXT PRIMARY KEY, currency TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS st_wallet_closes (
     id TEXT PRIMARY KEY, session TEXT NOT NULL, shoe INTEGER NOT NULL, round INTEGER NOT NULL, player TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'applied', 'refused'))) WITHOUT ROWID`,
];

type Row = Record<string, SqlStorageValue>;

export class WalletSeats {
  readonly #sql: SqlStorage;
  /** Whether the tables exist: only a table where a wallet seat bet has them (this object is their only writer). */
  #present: boolean | null = null;
  /** Sessions known to bet from a wallet (read once per session and instance). */
  readonly #known = new Map<string, boolean>();

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  #exists(): boolean {
    this.#present ??= this.#sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'st_wallet_seats'`).toArray().length > 0;
    return this.#present;
  }

  #exec(query: string, ...bindings: SqlStorageValue[]): Row[] {
    if (!this.#exists()) {
      for (const statement of SCHEMA) this.#sql.exec(statement);
      this.#present = true;
    }
    return this.#sql.exec<Row>(query, ...bindings).toArray();
  }

  /** A session's wallet debit was applied: it bets from a wallet in `currency` (call inside the bet's transaction). */
  mark(session: string, currency: string): void {
    if (this.#known.get(session) === true) return;
    this.#exec(`INSERT OR IGNORE INTO st_wallet_seats (session, currency) VALUES (?, ?)`, session, currency);
    this.#known.set(session, true);
  }

  /** Whether `session` bets from a wallet. */
  isWallet(session: string): boolean {
    if (!this.#exists()) return false;
    let known = this.#known.get(session);
    if (known === undefined) {
      known = this.#exec(`SELECT 1 FROM st_wallet_seats WHERE session = ?`, session).length > 0;
      this.#known.set(session, known);
    }
    return known;
  }

  /** Owes a lost wallet bet's zero credit (call inside the deal's transaction). */
  oweClose(c: WalletClose): void {
    this.#exec(
      `INSERT OR IGNORE INTO st_wallet_closes (id, session, shoe, round, player, status) VALUES (?, ?, ?, ?, ?, 'pending')`,
      c.id,
      c.session,
      c.shoe,
      c.round,
      c.player,
    );
  }

  /** Zero credits not answered yet, at most `limit`. */
  pendingCloses(limit: number): WalletClose[] {
    // Nothing is owed before a wallet seat bet: a play-money table never creates these tables.
    if (!this.#exists()) return [];
    return this.#exec(`SELECT * FROM st_wallet_closes WHERE status = 'pending' LIMIT ?`, limit).map((r) => ({
      id: String(r.id),
      session: String(r.session),
      shoe: Number(r.shoe),
      round: Number(r.round),
      player: String(r.player),
    }));
  }

  /** Records the session's answer to a zero credit; false when it was answered already. */
  settleClose(id: string, applied: boolean): boolean {
    return (
      this.#exec(`UPDATE st_wallet_closes SET status = ? WHERE id = ? AND status = 'pending' RETURNING id`, applied ? 'applied' : 'refused', id).length > 0
    );
  }
}
