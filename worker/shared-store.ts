/**
 * A shared table's rows (SQLite of the `SharedTable` object). Synchronous; the caller groups the
 * writes of one step into one `transactionSync`.
 *
 * - `st_state`: one row, the table's state as JSON (round, phase, the shoe and its server seed,
 *   which never leaves the object before the reveal);
 * - `st_bets`: one row per player and round: their bets, stake, and where the debit stands;
 * - `st_transfers`: the table's half of every money movement with a player's session (pending
 *   until the session's answer is recorded: shared-wallet.ts has the other half);
 * - `st_records`: every signed record, in order: the public transcript;
 * - `st_seeds`: the client seed (and cut) each seated player offers for the next shoe's start.
 */
import type { Bet, Signed } from '../shared/index.ts';

export type BetStatus = 'debiting' | 'accepted' | 'refused' | 'late';
export type TransferStatus = 'pending' | 'applied' | 'refused';
export type TransferKind = 'debit' | 'credit' | 'refund';

export interface BetRow {
  round: number;
  player: string;
  seat: string;
  betId: string;
  bets: Bet[];
  stake: number;
  status: BetStatus;
}

export interface TransferRow {
  id: string;
  player: string;
  round: number;
  kind: TransferKind;
  amount: number;
  status: TransferStatus;
}

export interface RecordRow {
  seq: number;
  shoe: number;
  round: number;
  kind: string;
  seat: string | null;
  record: Signed<{ type: string }>;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS st_state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS st_bets (
     round INTEGER NOT NULL, player TEXT NOT NULL, seat TEXT NOT NULL, bet_id TEXT NOT NULL,
     bets TEXT NOT NULL, stake INTEGER NOT NULL, status TEXT NOT NULL,
     PRIMARY KEY (round, player)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS st_transfers (
     id TEXT PRIMARY KEY, player TEXT NOT NULL, round INTEGER NOT NULL, kind TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount > 0), status TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS st_transfers_pending ON st_transfers (status) WHERE status = 'pending'`,
  `CREATE TABLE IF NOT EXISTS st_records (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, shoe INTEGER NOT NULL, round INTEGER NOT NULL,
     kind TEXT NOT NULL, seat TEXT, record TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS st_records_by_shoe ON st_records (shoe, seq)`,
  `CREATE TABLE IF NOT EXISTS st_seeds (player TEXT PRIMARY KEY, seat TEXT NOT NULL, client_seed TEXT NOT NULL, cut INTEGER) WITHOUT ROWID`,
];

type Row = Record<string, SqlStorageValue>;

export class SharedStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    for (const s of SCHEMA) sql.exec(s);
  }

  state<T>(): T | null {
    const r = this.#sql.exec<Row>('SELECT json FROM st_state WHERE id = 1').toArray()[0];
    return r ? (JSON.parse(String(r.json)) as T) : null;
  }

  saveState(state: object): void {
    this.#sql.exec('INSERT INTO st_state (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json', JSON.stringify(state));
  }

  bet(round: number, player: string): BetRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_bets WHERE round = ? AND player = ?', round, player).toArray()[0];
    return r ? betRow(r) : null;
  }

  bets(round: number, status?: BetStatus): BetRow[] {
    const rows = status
      ? this.#sql.exec<Row>('SELECT * FROM st_bets WHERE round = ? AND status = ? ORDER BY seat', round, status)
      : this.#sql.exec<Row>('SELECT * FROM st_bets WHERE round = ? ORDER BY seat', round);
    return rows.toArray().map(betRow);
  }

  insertBet(b: BetRow): void {
    this.#sql.exec('INSERT INTO st_bets VALUES (?, ?, ?, ?, ?, ?, ?)', b.round, b.player, b.seat, b.betId, JSON.stringify(b.bets), b.stake, b.status);
  }

  setBetStatus(round: number, player: string, status: BetStatus): void {
    this.#sql.exec('UPDATE st_bets SET status = ? WHERE round = ? AND player = ?', status, round, player);
  }

  transfer(id: string): TransferRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_transfers WHERE id = ?', id).toArray()[0];
    return r ? transferRow(r) : null;
  }

  pendingTransfers(limit: number): TransferRow[] {
    return this.#sql.exec<Row>(`SELECT * FROM st_transfers WHERE status = 'pending' LIMIT ?`, limit).toArray().map(transferRow);
  }

  hasPendingTransfers(): boolean {
    return this.#sql.exec(`SELECT 1 FROM st_transfers WHERE status = 'pending' LIMIT 1`).toArray().length > 0;
  }

  /** Inserts a transfer as pending; an id already known is left as it is (the same movement). */
  insertTransfer(t: Omit<TransferRow, 'status'>): void {
    this.#sql.exec(`INSERT INTO st_transfers VALUES (?, ?, ?, ?, ?, 'pending') ON CONFLICT (id) DO NOTHING`, t.id, t.player, t.round, t.kind, t.amount);
  }

  setTransferStatus(id: string, status: TransferStatus): void {
    this.#sql.exec('UPDATE st_transfers SET status = ? WHERE id = ?', status, id);
  }

  /** Every transfer, for the table's books. */
  transfers(): TransferRow[] {
    return this.#sql.exec<Row>('SELECT * FROM st_transfers').toArray().map(transferRow);
  }

  insertRecord(shoe: number, round: number, seat: string | null, record: Signed<{ type: string }>): void {
    this.#sql.exec('INSERT INTO st_records (shoe, round, kind, seat, record) VALUES (?, ?, ?, ?, ?)', shoe, round, record.body.type, seat, JSON.stringify(record));
  }

  records(shoe: number): RecordRow[] {
    return this.#sql.exec<Row>('SELECT * FROM st_records WHERE shoe = ? ORDER BY seq', shoe).toArray().map(recordRow);
  }

  /** The newest record of `kind` for `round` (a close, a result or a void). */
  record(round: number, kind: string): RecordRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_records WHERE round = ? AND kind = ? ORDER BY seq DESC LIMIT 1', round, kind).toArray()[0];
    return r ? recordRow(r) : null;
  }

  setSeed(player: string, seat: string, clientSeed: string, cut: number | null): void {
    this.#sql.exec(
      'INSERT INTO st_seeds VALUES (?, ?, ?, ?) ON CONFLICT (player) DO UPDATE SET client_seed = excluded.client_seed, cut = excluded.cut',
      player, seat, clientSeed, cut,
    );
  }

  seeds(players: readonly string[]): Array<{ player: string; seat: string; clientSeed: string; cut: number | null }> {
    const wanted = new Set(players);
    return this.#sql
      .exec<Row>('SELECT * FROM st_seeds ORDER BY seat')
      .toArray()
      .filter((r) => wanted.has(String(r.player)))
      .map((r) => ({ player: String(r.player), seat: String(r.seat), clientSeed: String(r.client_seed), cut: r.cut === null ? null : Number(r.cut) }));
  }

  clearSeeds(): void {
    this.#sql.exec('DELETE FROM st_seeds');
  }
}

function betRow(r: Row): BetRow {
  return {
    round: Number(r.round),
    player: String(r.player),
    seat: String(r.seat),
    betId: String(r.bet_id),
    bets: JSON.parse(String(r.bets)) as Bet[],
    stake: Number(r.stake),
    status: String(r.status) as BetStatus,
  };
}

function transferRow(r: Row): TransferRow {
  return {
    id: String(r.id),
    player: String(r.player),
    round: Number(r.round),
    kind: String(r.kind) as TransferKind,
    amount: Number(r.amount),
    status: String(r.status) as TransferStatus,
  };
}

function recordRow(r: Row): RecordRow {
  return {
    seq: Number(r.seq),
    shoe: Number(r.shoe),
    round: Number(r.round),
    kind: String(r.kind),
    seat: r.seat === null ? null : String(r.seat),
    record: JSON.parse(String(r.record)) as Signed<{ type: string }>,
  };
}
