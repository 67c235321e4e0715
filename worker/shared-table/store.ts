/**
 * A shared table's rows (SQLite of the `SharedTable` object). Synchronous; the caller groups the
 * writes of one step into one `transactionSync`.
 *
 * - `st_state`: one row, the table's state as JSON (round, phase, the shoe and its server seed,
 *   which never leaves the object before the reveal);
 * - `st_bets`: one row per player key and round: its signed bet request, stake, where the debit stands;
 * - `st_transfers`: the table's half of every money movement with a player's session (pending
 *   until the session's answer is recorded: wallet.ts has the other half);
 * - `st_records`: every signed record, in order: the public transcript;
 * - `st_starts`: each seated player's signed start request (seed and cut) for a shoe: one per session;
 * - `st_keys`: which session each player key moves the money of (bound at its first request; one key per session).
 */
import type { SharedBetStatus } from '../../shared/wire/shared-table-socket.ts';
import type { SharedBetRequest, SharedRecord, SharedStartRequest, SignedShared, SignedSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';

export type BetStatus = SharedBetStatus;
export type TransferStatus = 'pending' | 'applied' | 'refused';
export type TransferKind = 'debit' | 'credit' | 'refund';

export interface BetRow {
  shoe: number;
  round: number;
  /** The player's key (its pseudonym at the table) and the session whose money it moves. */
  player: string;
  session: string;
  request: SignedSharedRequest<SharedBetRequest>;
  stake: number;
  /** The session's balance before the stake (known once the debit is applied; the settlement states it). */
  balanceBefore: number | null;
  status: BetStatus;
}

export interface TransferRow {
  id: string;
  /** The session whose balance moves. */
  session: string;
  shoe: number;
  round: number;
  kind: TransferKind;
  amount: number;
  status: TransferStatus;
}

/** A record's kind (its body's `type`), and the record of one kind. */
export type RecordKind = SharedRecord['type'];
export type RecordOfKind<K extends RecordKind> = Extract<SharedRecord, { type: K }>;

export interface RecordRow<T extends SharedRecord = SharedRecord> {
  seq: number;
  shoe: number;
  round: number;
  kind: T['type'];
  player: string | null;
  record: SignedShared<T>;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS st_state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS st_bets (
     shoe INTEGER NOT NULL, round INTEGER NOT NULL, player TEXT NOT NULL, session TEXT NOT NULL,
     request TEXT NOT NULL, stake INTEGER NOT NULL, balance_before INTEGER, status TEXT NOT NULL,
     PRIMARY KEY (shoe, round, player)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS st_transfers (
     id TEXT PRIMARY KEY, session TEXT NOT NULL, shoe INTEGER NOT NULL, round INTEGER NOT NULL, kind TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount > 0), status TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS st_transfers_pending ON st_transfers (status) WHERE status = 'pending'`,
  `CREATE TABLE IF NOT EXISTS st_records (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, shoe INTEGER NOT NULL, round INTEGER NOT NULL,
     kind TEXT NOT NULL, player TEXT, record TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS st_records_by_shoe ON st_records (shoe, seq)`,
  `CREATE INDEX IF NOT EXISTS st_records_by_kind ON st_records (shoe, kind, seq)`,
  `CREATE TABLE IF NOT EXISTS st_starts (shoe INTEGER NOT NULL, player TEXT NOT NULL, session TEXT NOT NULL, request TEXT NOT NULL, PRIMARY KEY (shoe, player)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS st_keys (player TEXT PRIMARY KEY, session TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS st_keys_by_session ON st_keys (session)`,
];

/** What binding a key to a session found: bound (now or before), another session's key, or a second key of this session. */
export type KeyBinding = 'bound' | 'taken' | 'second_key';

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

  bet(shoe: number, round: number, player: string): BetRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_bets WHERE shoe = ? AND round = ? AND player = ?', shoe, round, player).toArray()[0];
    return r ? betRow(r) : null;
  }

  /** A round's bets, ascending by player key (the close's order). */
  bets(shoe: number, round: number, status?: BetStatus): BetRow[] {
    const rows = status
      ? this.#sql.exec<Row>('SELECT * FROM st_bets WHERE shoe = ? AND round = ? AND status = ? ORDER BY player', shoe, round, status)
      : this.#sql.exec<Row>('SELECT * FROM st_bets WHERE shoe = ? AND round = ? ORDER BY player', shoe, round);
    return rows.toArray().map(betRow);
  }

  /** The bets of a session in a round (one per key it signs with). */
  sessionBets(shoe: number, round: number, session: string): BetRow[] {
    return this.#sql.exec<Row>('SELECT * FROM st_bets WHERE shoe = ? AND round = ? AND session = ?', shoe, round, session).toArray().map(betRow);
  }

  insertBet(b: BetRow): void {
    this.#sql.exec(
      'INSERT INTO st_bets VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      b.shoe,
      b.round,
      b.player,
      b.session,
      JSON.stringify(b.request),
      b.stake,
      b.balanceBefore,
      b.status,
    );
  }

  setBetStatus(b: Pick<BetRow, 'shoe' | 'round' | 'player'>, status: BetStatus, balanceBefore: number | null = null): void {
    this.#sql.exec(
      'UPDATE st_bets SET status = ?, balance_before = coalesce(?, balance_before) WHERE shoe = ? AND round = ? AND player = ?',
      status,
      balanceBefore,
      b.shoe,
      b.round,
      b.player,
    );
  }

  transfer(id: string): TransferRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_transfers WHERE id = ?', id).toArray()[0];
    return r ? transferRow(r) : null;
  }

  pendingTransfers(limit: number): TransferRow[] {
    return this.#sql.exec<Row>(`SELECT * FROM st_transfers WHERE status = 'pending' LIMIT ?`, limit).toArray().map(transferRow);
  }

  /** A session's credits and refunds not answered yet (what the table owes it), oldest round first. */
  owedTo(session: string, limit = 32): TransferRow[] {
    return this.#sql
      .exec<Row>(`SELECT * FROM st_transfers WHERE status = 'pending' AND session = ? AND kind != 'debit' ORDER BY shoe, round LIMIT ?`, session, limit)
      .toArray()
      .map(transferRow);
  }

  hasPendingTransfers(): boolean {
    return this.#sql.exec(`SELECT 1 FROM st_transfers WHERE status = 'pending' LIMIT 1`).toArray().length > 0;
  }

  /** Inserts a transfer as pending; an id already known is left as it is (the same movement). */
  insertTransfer(t: Omit<TransferRow, 'status'>): void {
    this.#sql.exec(
      `INSERT INTO st_transfers VALUES (?, ?, ?, ?, ?, ?, 'pending') ON CONFLICT (id) DO NOTHING`,
      t.id,
      t.session,
      t.shoe,
      t.round,
      t.kind,
      t.amount,
    );
  }

  setTransferStatus(id: string, status: TransferStatus): void {
    this.#sql.exec('UPDATE st_transfers SET status = ? WHERE id = ?', status, id);
  }

  /** Every transfer, for the table's books. */
  transfers(): TransferRow[] {
    return this.#sql.exec<Row>('SELECT * FROM st_transfers').toArray().map(transferRow);
  }

  insertRecord(round: number, player: string | null, record: SignedShared): void {
    this.#sql.exec(
      'INSERT INTO st_records (shoe, round, kind, player, record) VALUES (?, ?, ?, ?, ?)',
      record.body.shoe,
      round,
      record.body.type,
      player,
      JSON.stringify(record),
    );
  }

  /** One shoe's records, or (shoe null) the table's whole history, in chain order. */
  records(shoe: number | null): RecordRow[] {
    const rows =
      shoe === null
        ? this.#sql.exec<Row>('SELECT * FROM st_records ORDER BY seq')
        : this.#sql.exec<Row>('SELECT * FROM st_records WHERE shoe = ? ORDER BY seq', shoe);
    return rows.toArray().map(recordRow);
  }

  /** A shoe's records of one kind, in chain order. */
  recordsOf<K extends RecordKind>(shoe: number, kind: K): RecordRow<RecordOfKind<K>>[] {
    return this.#sql
      .exec<Row>('SELECT * FROM st_records WHERE shoe = ? AND kind = ? ORDER BY seq', shoe, kind)
      .toArray()
      .map((r) => recordRow(r) as RecordRow<RecordOfKind<K>>);
  }

  /** The newest record of `kind` in a shoe (and round). */
  record<K extends RecordKind>(shoe: number, kind: K, round?: number): RecordRow<RecordOfKind<K>> | null {
    const r = (
      round === undefined
        ? this.#sql.exec<Row>('SELECT * FROM st_records WHERE shoe = ? AND kind = ? ORDER BY seq DESC LIMIT 1', shoe, kind)
        : this.#sql.exec<Row>('SELECT * FROM st_records WHERE shoe = ? AND round = ? AND kind = ? ORDER BY seq DESC LIMIT 1', shoe, round, kind)
    ).toArray()[0];
    return r ? (recordRow(r) as RecordRow<RecordOfKind<K>>) : null;
  }

  /** The head of the chain: the newest record. */
  last(): RecordRow | null {
    const r = this.#sql.exec<Row>('SELECT * FROM st_records ORDER BY seq DESC LIMIT 1').toArray()[0];
    return r ? recordRow(r) : null;
  }

  /**
   * Binds a player key to a session on its first use. A session sits with one key at a table: a
   * key already another session's is `taken`, a second key of a session is `second_key`.
   */
  bindKey(player: string, session: string): KeyBinding {
    // Read first: a key already bound (every bet after the first) writes nothing.
    const bound = this.#sql.exec<Row>('SELECT session FROM st_keys WHERE player = ?', player).toArray()[0];
    if (bound) return String(bound.session) === session ? 'bound' : 'taken';
    if (this.keyOf(session) !== null) return 'second_key';
    this.#sql.exec('INSERT INTO st_keys VALUES (?, ?)', player, session);
    return 'bound';
  }

  /** The key a session sits with at this table (the first by key, if it bound several before one key per session was the rule). */
  keyOf(session: string): string | null {
    const r = this.#sql.exec<Row>('SELECT player FROM st_keys WHERE session = ? ORDER BY player LIMIT 1', session).toArray()[0];
    return r ? String(r.player) : null;
  }

  /** How many bets of a round are taken or being taken (refused ones do not count). */
  bettors(shoe: number, round: number): number {
    const r = this.#sql.exec<Row>(`SELECT count(*) AS n FROM st_bets WHERE shoe = ? AND round = ? AND status != 'refused'`, shoe, round).toArray()[0];
    return Number(r?.n ?? 0);
  }

  setStart(shoe: number, player: string, session: string, request: SignedSharedRequest<SharedStartRequest>): void {
    this.#sql.exec('INSERT INTO st_starts VALUES (?, ?, ?, ?)', shoe, player, session, JSON.stringify(request));
  }

  /** The start requests of a shoe from these sessions. */
  starts(shoe: number, sessions: ReadonlySet<string>): Array<SignedSharedRequest<SharedStartRequest>> {
    return this.#sql
      .exec<Row>('SELECT * FROM st_starts WHERE shoe = ? ORDER BY player', shoe)
      .toArray()
      .filter((r) => sessions.has(String(r.session)))
      .map((r) => JSON.parse(String(r.request)) as SignedSharedRequest<SharedStartRequest>);
  }

  /** The session of each player key with a start request for the shoe (where its start proof goes). */
  startSessions(shoe: number): Map<string, string> {
    return new Map(
      this.#sql
        .exec<Row>('SELECT player, session FROM st_starts WHERE shoe = ?', shoe)
        .toArray()
        .map((r) => [String(r.player), String(r.session)]),
    );
  }

  /** A session's start request for a shoe, if it sent one. */
  hasStart(shoe: number, session: string): boolean {
    return this.#sql.exec('SELECT 1 FROM st_starts WHERE shoe = ? AND session = ? LIMIT 1', shoe, session).toArray().length > 0;
  }
}

function betRow(r: Row): BetRow {
  return {
    shoe: Number(r.shoe),
    round: Number(r.round),
    player: String(r.player),
    session: String(r.session),
    request: JSON.parse(String(r.request)) as SignedSharedRequest<SharedBetRequest>,
    stake: Number(r.stake),
    balanceBefore: r.balance_before === null ? null : Number(r.balance_before),
    status: String(r.status) as BetStatus,
  };
}

function transferRow(r: Row): TransferRow {
  return {
    id: String(r.id),
    session: String(r.session),
    shoe: Number(r.shoe),
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
    kind: String(r.kind) as RecordKind,
    player: r.player === null ? null : String(r.player),
    record: JSON.parse(String(r.record)) as SignedShared,
  };
}
