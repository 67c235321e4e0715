/**
 * Typed reads and writes of a table session's rows (schema in `schema.ts`). Synchronous, like
 * `ctx.storage.sql`: the caller groups the writes of one change into one `transactionSync`.
 * Signed records are stored as their JSON, exactly as they were sent.
 */
import type {
  Attribution,
  CommitmentBody,
  CommitmentV2,
  ReceiptBody,
  RecordV2,
  RevealBody,
  RevealV2,
  RoomId,
  ShoeParams,
  ShoeParamsV2,
  ShoeStatus,
  Signed,
  SignedV2,
  StartBody,
  StartV2,
} from '../shared/index.ts';
import type { StoredTransfer, Transfer } from './shared-wallet.ts';

export type Protocol = 'pb-fair-1' | 'pb-fair-2';

export interface SessionRow {
  sessionId: string;
  room: RoomId;
  affiliate: string | null;
  /** How the affiliate was attributed at creation (attribution.ts); 'claimed' for older sessions. */
  attribution: Attribution;
  /** pb-fair-1 sessions (created before schema version 5) are read-only. */
  protocol: Protocol;
  /** The player's Ed25519 public key (pb-fair-2), base64url x. */
  playerKey: string | null;
  balance: number;
  currentShoe: number;
  /** Hash of the newest record of the chain. */
  head: string | null;
  /** Rounds accepted in the current shoe while it is in play (pb-fair-1: dealt). */
  shoeRounds: number;
  /** The accepted round waiting for its secret (its stake debited), or null. */
  pendingRound: number | null;
  /** When the table acts on its own (ISO): void the pending round, or reveal a shoe idle after a void. */
  dueAt: string | null;
  createdAt: string;
  /** Running totals of every settled round of the session (the ledger's figures). */
  rounds: number;
  staked: number;
  returned: number;
  /** Rounds the operator's ledger has acknowledged; -1 until it knows the session. */
  ledgerRounds: number;
}

/** What a new (pb-fair-2) session row is given; the totals start at zero. */
export type NewSession = Pick<SessionRow, 'sessionId' | 'room' | 'affiliate' | 'attribution' | 'balance' | 'currentShoe' | 'head' | 'createdAt'> & {
  playerKey: string;
};

/**
 * What one change does to the session row: a single guarded UPDATE (one row written). Every
 * balance change goes through here, in the transaction that stores the record stating it.
 */
export interface SessionChange {
  head: string;
  balance?: number;
  currentShoe?: number;
  /** Accepted rounds of the current shoe. */
  shoeRounds?: number;
  /** The round now waiting for its secret (null: none). */
  pendingRound?: number | null;
  dueAt?: string | null;
  /** A settled round's stake and return, added to the running totals. */
  settled?: { staked: number; returned: number };
}

/** The state the row must be in for the change to apply (else the transaction aborts). */
export interface SessionExpect {
  shoe: number;
  shoeRounds: number;
  pendingRound: number | null;
}

/** A pb-fair-1 shoe (read-only). */
export interface ShoeRow {
  number: number;
  params: ShoeParams;
  status: ShoeStatus;
  commitment: Signed<CommitmentBody>;
  start: Signed<StartBody> | null;
  rounds: number;
  reveal: Signed<RevealBody> | null;
}

/** A pb-fair-2 shoe: its secret (the server seed) and its records. */
export interface ShoeRowV2 {
  number: number;
  params: ShoeParamsV2;
  serverSeed: string;
  status: ShoeStatus;
  commitment: SignedV2<CommitmentV2>;
  start: SignedV2<StartV2> | null;
  clientSeed: string | null;
  cut: number | null;
  /** Accepted rounds once the shoe ended (while in play: the session's `shoeRounds`). */
  rounds: number;
  reveal: SignedV2<RevealV2> | null;
}

/** A record and, when it answered a request, that request's Idempotency-Key. */
export interface RecordKey {
  key: string;
  requestHash: string;
  /** ISO time of the answer (the key is remembered for a day from then). */
  at: string;
}

/** The record that answered an Idempotency-Key. */
export interface KeyedRecord {
  requestHash: string;
  seq: number;
  record: SignedV2;
}

type KeyPlace = { at: string; seq: number };

/**
 * Every transfer a shared table asked of this session, by id, with its outcome (shared-wallet.ts).
 * Created on the first transfer (sessions that never sit at a shared table never have it); the
 * primary key makes the exactly-once check one indexed read.
 */
const TRANSFERS_SCHEMA = `CREATE TABLE IF NOT EXISTS shared_transfers (
  id TEXT PRIMARY KEY,
  table_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  kind TEXT NOT NULL,
  amount INTEGER NOT NULL,
  applied INTEGER NOT NULL,
  balance_after INTEGER NOT NULL,
  at TEXT NOT NULL
)`;

type Row = Record<string, SqlStorageValue>;

function json<T>(text: SqlStorageValue): T {
  return JSON.parse(String(text)) as T;
}

function jsonOrNull<T>(text: SqlStorageValue): T | null {
  return text === null ? null : json<T>(text);
}

export class TableStore {
  readonly #sql: SqlStorage;
  /**
   * Rows written by this store's statements since this instance started, indexes included: what
   * SQLite-backed Durable Objects are billed for (the bench and the tests read it).
   */
  rowsWritten = 0;
  /**
   * The Idempotency-Keys answered in the last day, oldest first: read once per instance from the
   * records, then kept up to date, so that a new key (nearly every change) costs no query, and the
   * records need no index on their key (one more row written per record). Only a hint: a hit is read back from storage, so an entry left by a rolled-back
   * transaction finds nothing.
   */
  #keys: Map<string, KeyPlace> | null = null;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Runs one statement to its end, counting the rows it wrote. */
  #exec<T extends Row = Row>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.#sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.rowsWritten += cursor.rowsWritten;
    return rows;
  }

  /** A guarded write that must change exactly one row (indexes aside); anything else aborts the transaction. */
  #once(what: string, query: string, ...bindings: SqlStorageValue[]): void {
    const before = this.rowsWritten;
    this.#exec(query, ...bindings);
    if (this.rowsWritten === before) throw new Error(`storage guard: ${what} changed no row`);
  }

  session(): SessionRow | null {
    const r = this.#exec<Row>(`SELECT * FROM session WHERE id = 1`)[0];
    if (!r) return null;
    return {
      sessionId: String(r.session_id),
      room: String(r.room) as RoomId,
      affiliate: r.affiliate === null ? null : String(r.affiliate),
      attribution: String(r.attribution) as Attribution,
      protocol: String(r.protocol) as Protocol,
      playerKey: r.player_key === null ? null : String(r.player_key),
      balance: Number(r.balance),
      currentShoe: Number(r.current_shoe),
      head: r.head === null ? null : String(r.head),
      shoeRounds: Number(r.shoe_rounds),
      pendingRound: r.pending_round === null ? null : Number(r.pending_round),
      dueAt: r.due_at === null ? null : String(r.due_at),
      createdAt: String(r.created_at),
      rounds: Number(r.rounds_total),
      staked: Number(r.staked_total),
      returned: Number(r.returned_total),
      ledgerRounds: Number(r.ledger_rounds),
    };
  }

  insertSession(s: NewSession): void {
    this.#exec(
      `INSERT INTO session (id, session_id, room, affiliate, attribution, protocol, player_key, balance, current_shoe, head, created_at) VALUES (1, ?, ?, ?, ?, 'pb-fair-2', ?, ?, ?, ?, ?)`,
      s.sessionId,
      s.room,
      s.affiliate,
      s.attribution,
      s.playerKey,
      s.balance,
      s.currentShoe,
      s.head,
      s.createdAt,
    );
  }

  /**
   * Applies one change to the session row. `expected`: the shoe, its accepted rounds and the
   * pending round before this change; a row that moved on meanwhile matches nothing and the
   * transaction aborts.
   */
  updateSession(change: SessionChange, expected: SessionExpect): void {
    const set: string[] = ['head = ?'];
    const values: SqlStorageValue[] = [change.head];
    const assign = (column: string, value: SqlStorageValue) => {
      set.push(`${column} = ?`);
      values.push(value);
    };
    if (change.balance !== undefined) assign('balance', change.balance);
    if (change.currentShoe !== undefined) assign('current_shoe', change.currentShoe);
    if (change.shoeRounds !== undefined) assign('shoe_rounds', change.shoeRounds);
    if (change.pendingRound !== undefined) assign('pending_round', change.pendingRound);
    if (change.dueAt !== undefined) assign('due_at', change.dueAt);
    if (change.settled) {
      set.push('rounds_total = rounds_total + 1', 'staked_total = staked_total + ?', 'returned_total = returned_total + ?');
      values.push(change.settled.staked, change.settled.returned);
    }
    values.push(expected.shoe, expected.shoeRounds, expected.pendingRound ?? -1);
    this.#once(
      'updateSession',
      `UPDATE session SET ${set.join(', ')} WHERE id = 1 AND current_shoe = ? AND shoe_rounds = ? AND COALESCE(pending_round, -1) = ?`,
      ...values,
    );
  }

  /** A retired (pb-fair-1) session's balance moved by a shared table: it has no pb-fair-2 chain to record in. */
  setBalance(balance: number): void {
    this.#once('setBalance', `UPDATE session SET balance = ? WHERE id = 1`, balance);
  }

  /** Records that the ledger has the totals up to `rounds` (never moves back). */
  markLedger(rounds: number): void {
    this.#exec(`UPDATE session SET ledger_rounds = MAX(ledger_rounds, ?) WHERE id = 1`, rounds);
  }

  tokenHashes(): string[] {
    return this.#exec<{ hash: string }>(`SELECT hash FROM tokens`).map((r) => r.hash);
  }

  insertToken(hash: string, issuedAt: string): void {
    this.#exec(`INSERT INTO tokens (hash, issued_at) VALUES (?, ?)`, hash, issuedAt);
  }

  // ---- pb-fair-1 (read-only) ----------------------------------------------------------------------

  /** A pb-fair-1 shoe with its signed records. */
  shoe(number: number): ShoeRow | null {
    const r = this.#exec<Row>(`SELECT shoes.*, session.shoe_rounds AS live_rounds FROM shoes, session WHERE number = ? AND session.id = 1`, number)[0];
    if (!r) return null;
    return {
      number: Number(r.number),
      params: json<ShoeParams>(r.params!),
      status: String(r.status) as ShoeStatus,
      commitment: json<Signed<CommitmentBody>>(r.commitment!),
      start: jsonOrNull<Signed<StartBody>>(r.start!),
      // While the shoe was in play its rounds lived in the session row (schema version 4).
      rounds: Number(r.status === 'in-play' ? r.live_rounds : r.rounds),
      reveal: jsonOrNull<Signed<RevealBody>>(r.reveal!),
    };
  }

  receipts(shoe: number): Signed<ReceiptBody>[] {
    return this.#exec<{ record: string }>(`SELECT record FROM receipts WHERE shoe = ? ORDER BY round`, shoe).map((r) => json<Signed<ReceiptBody>>(r.record));
  }

  lastReceipt(): Signed<ReceiptBody> | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM receipts ORDER BY shoe DESC, round DESC LIMIT 1`)[0];
    return r ? json<Signed<ReceiptBody>>(r.record) : null;
  }

  // ---- pb-fair-2 ----------------------------------------------------------------------------------

  /** A pb-fair-2 shoe: its seed, params and signed commitment / start / reveal. */
  shoeV2(number: number): ShoeRowV2 | null {
    const r = this.#exec<Row>(`SELECT shoes.*, session.shoe_rounds AS live_rounds FROM shoes, session WHERE number = ? AND session.id = 1`, number)[0];
    if (!r) return null;
    return {
      number: Number(r.number),
      params: json<ShoeParamsV2>(r.params!),
      serverSeed: String(r.server_seed),
      status: String(r.status) as ShoeStatus,
      commitment: json<SignedV2<CommitmentV2>>(r.commitment!),
      start: jsonOrNull<SignedV2<StartV2>>(r.start!),
      clientSeed: r.client_seed === null ? null : String(r.client_seed),
      cut: r.cut === null ? null : Number(r.cut),
      rounds: Number(r.status === 'in-play' ? r.live_rounds : r.rounds),
      reveal: jsonOrNull<SignedV2<RevealV2>>(r.reveal!),
    };
  }

  /** A new shoe: its seed stays in this row until the reveal. */
  insertShoe(s: { number: number; params: ShoeParamsV2; serverSeed: string; commitment: SignedV2<CommitmentV2> }): void {
    this.#exec(
      `INSERT INTO shoes (number, params, server_seed, status, commitment, rounds) VALUES (?, ?, ?, 'awaiting-start', ?, 0)`,
      s.number,
      JSON.stringify(s.params),
      s.serverSeed,
      JSON.stringify(s.commitment),
    );
  }

  startShoe(number: number, start: SignedV2<StartV2>): void {
    const r = start.body.request.body;
    this.#once(
      'startShoe',
      `UPDATE shoes SET status = 'in-play', start = ?, client_seed = ?, cut = ? WHERE number = ? AND status = 'awaiting-start'`,
      JSON.stringify(start),
      r.clientSeed,
      r.cut,
      number,
    );
  }

  endShoe(number: number, reveal: SignedV2<RevealV2>): void {
    this.#once(
      'endShoe',
      `UPDATE shoes SET status = 'ended', reveal = ?, rounds = ? WHERE number = ? AND status != 'ended'`,
      JSON.stringify(reveal),
      reveal.body.rounds,
      number,
    );
  }

  /** Appends a record to the chain (one row); `key`: the request it answers. */
  appendRecord(record: SignedV2, key?: RecordKey): void {
    const b = record.body as { shoe: number; type: string; round?: number };
    const cursor = this.#sql.exec(
      `INSERT INTO records (shoe, type, round, hash, record, idempotency_key, request_hash, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
      b.shoe,
      b.type,
      b.round ?? null,
      record.hash,
      JSON.stringify(record),
      key?.key ?? null,
      key?.requestHash ?? null,
      key?.at ?? null,
    );
    const seq = Number(cursor.one().seq);
    this.rowsWritten += cursor.rowsWritten;
    if (key) this.#remember(key.key, { seq, at: key.at });
  }

  /** The table's records in chain order, or one shoe's. */
  records(shoe?: number): SignedV2[] {
    const rows =
      shoe === undefined
        ? this.#exec<{ record: string }>(`SELECT record FROM records ORDER BY seq`)
        : this.#exec<{ record: string }>(`SELECT record FROM records WHERE shoe = ? ORDER BY seq`, shoe);
    return rows.map((r) => json<SignedV2>(r.record));
  }

  /** The newest record of one type, optionally of one shoe and round. */
  lastRecord<T extends RecordV2>(type: T['type'] | null, shoe?: number, round?: number): SignedV2<T> | null {
    const where: string[] = [];
    const values: SqlStorageValue[] = [];
    if (type !== null) (where.push('type = ?'), values.push(type));
    if (shoe !== undefined) (where.push('shoe = ?'), values.push(shoe));
    if (round !== undefined) (where.push('round = ?'), values.push(round));
    const r = this.#exec<{ record: string }>(
      `SELECT record FROM records ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT 1`,
      ...values,
    )[0];
    return r ? json<SignedV2<T>>(r.record) : null;
  }

  /** The newest record that is not a transfer: what a player who has not seen the transfers after it follows (FAIRNESS.md §B14). */
  lastPrivateRecord(): SignedV2 | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM records WHERE type != 'transfer' ORDER BY seq DESC LIMIT 1`)[0];
    return r ? json<SignedV2>(r.record) : null;
  }

  // ---- shared tables' transfers ---------------------------------------------------------------------

  /** The stored outcome of transfer `id`, if it was seen before. */
  transfer(id: string): StoredTransfer | null {
    this.#sql.exec(TRANSFERS_SCHEMA);
    const r = this.#exec<Row>(`SELECT applied, balance_after FROM shared_transfers WHERE id = ?`, id)[0];
    return r ? { applied: Number(r.applied) === 1, balanceAfter: Number(r.balance_after) } : null;
  }

  /** Keeps a transfer's outcome (applied or refused), in the transaction that changes the balance. */
  insertTransfer(t: Transfer, outcome: StoredTransfer, at: string): void {
    this.#sql.exec(TRANSFERS_SCHEMA);
    this.#exec(
      `INSERT INTO shared_transfers (id, table_id, round, kind, amount, applied, balance_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      t.id,
      t.table,
      t.round,
      t.kind,
      t.amount,
      outcome.applied ? 1 : 0,
      outcome.balanceAfter,
      at,
    );
  }

  /** Every transfer of the session, oldest first (the player's side of the books, for audits and tests). */
  transfers(): Array<Omit<Transfer, 'shoe'> & StoredTransfer> {
    this.#sql.exec(TRANSFERS_SCHEMA);
    return this.#exec<Row>(`SELECT * FROM shared_transfers ORDER BY rowid`).map((r) => ({
      id: String(r.id),
      table: String(r.table_id),
      round: Number(r.round),
      kind: String(r.kind) as Transfer['kind'],
      amount: Number(r.amount),
      applied: Number(r.applied) === 1,
      balanceAfter: Number(r.balance_after),
    }));
  }

  /** The record right after `seq`, if any. */
  recordAfter(seq: number): SignedV2 | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM records WHERE seq > ? ORDER BY seq LIMIT 1`, seq)[0];
    return r ? json<SignedV2>(r.record) : null;
  }

  /** The record that answered `key`, if it was answered at `since` (ISO time) or later. */
  answered(key: string, since: string): KeyedRecord | null {
    const place = this.#recentKeys(since).get(key);
    if (!place || place.at < since) return null;
    const r = this.#exec<Row>(`SELECT record, request_hash FROM records WHERE seq = ? AND idempotency_key = ?`, place.seq, key)[0];
    return r ? { requestHash: String(r.request_hash), seq: place.seq, record: json<SignedV2>(r.record!) } : null;
  }

  /** The keys answered since `since`: read once (the records newest first, down to `since`), then kept up to date. */
  #recentKeys(since: string): Map<string, KeyPlace> {
    if (!this.#keys) {
      const recent: Array<[string, KeyPlace]> = [];
      for (const r of this.#sql.exec<Row>(`SELECT seq, idempotency_key, answered_at FROM records ORDER BY seq DESC`)) {
        if (r.answered_at === null) continue; // a record no request asked for (commitment, void)
        if (String(r.answered_at) < since) break;
        recent.push([String(r.idempotency_key), { seq: Number(r.seq), at: String(r.answered_at) }]);
      }
      this.#keys = new Map(recent.reverse());
    }
    // Forget the oldest keys once their day is over (the map is in answer order).
    for (const [key, place] of this.#keys) {
      if (place.at >= since) break;
      this.#keys.delete(key);
    }
    return this.#keys;
  }

  /** Notes a key just answered (when the keys were read already; otherwise they will be read from storage). */
  #remember(key: string, place: KeyPlace): void {
    if (!this.#keys) return;
    this.#keys.delete(key); // a key used again after its day: the newest use counts, at the end
    this.#keys.set(key, place);
  }
}
