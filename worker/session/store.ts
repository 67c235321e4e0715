/**
 * Typed reads and writes of a table session's rows (schema in `schema.ts`). Synchronous, like
 * `ctx.storage.sql`: the caller groups the writes of one change into one `transactionSync`.
 * Signed records are stored as their JSON, exactly as they were sent.
 */
import type {
  Attribution,
  Fair1CommitmentBody,
  Commitment,
  Fair1ReceiptBody,
  FileRecord,
  Fair1RevealBody,
  Reveal,
  RoomId,
  Fair1ShoeParams,
  ShoeParams,
  ShoeStatus,
  Fair1Signed,
  Signed,
  Fair1StartBody,
  Start,
} from '../../shared/index.ts';
import type { StoredTransfer, WalletTransfer } from '../shared-table/wallet.ts';

export type Protocol = 'pb-fair-1' | 'pb-fair-2';

export interface SessionRow {
  sessionId: string;
  room: RoomId;
  affiliate: string | null;
  /** How the affiliate was attributed at creation (embed/attribution.ts); 'claimed' for older sessions. */
  attribution: Attribution;
  /** pb-fair-1 sessions (created before schema version 5) are read-only. */
  protocol: Protocol;
  /** The player's Ed25519 public key (pb-fair-2), base64url x. */
  playerKey: string | null;
  balance: number;
  currentShoe: number;
  /** Hash of the newest record of the chain (pb-fair-1: its newest receipt or reveal). */
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
  /** Rounds the operator's ledger had acknowledged when this was last written (-1: never); a lower bound, no longer written (table.ts). */
  ledgerRounds: number;
}

/** What a new (pb-fair-2) session row is given: what never changes (its state is its records'). */
export type NewSession = Pick<SessionRow, 'sessionId' | 'room' | 'affiliate' | 'attribution' | 'createdAt'> & {
  playerKey: string;
};

/**
 * A pb-fair-2 session as it stands after one of its records (schema version 6): kept in that
 * record's row, so that a change writes its record and nothing else. The session is what its
 * newest record's row says; the current shoe is that record's shoe, the head its hash.
 */
export type SessionState = Pick<SessionRow, 'balance' | 'shoeRounds' | 'pendingRound' | 'dueAt' | 'rounds' | 'staked' | 'returned'>;

/** What a change does to the session's state: the fields it sets, and a settled round's stake and return (added to the totals). */
export type SessionChange = Partial<Pick<SessionState, 'balance' | 'shoeRounds' | 'pendingRound' | 'dueAt'>> & {
  settled?: { staked: number; returned: number };
};

/** The session's state after `change`. */
export function stateAfter(s: SessionState, change: SessionChange): SessionState {
  const { settled } = change;
  return {
    balance: change.balance ?? s.balance,
    shoeRounds: change.shoeRounds ?? s.shoeRounds,
    pendingRound: change.pendingRound === undefined ? s.pendingRound : change.pendingRound,
    dueAt: change.dueAt === undefined ? s.dueAt : change.dueAt,
    rounds: s.rounds + (settled ? 1 : 0),
    staked: s.staked + (settled?.staked ?? 0),
    returned: s.returned + (settled?.returned ?? 0),
  };
}

/** A pb-fair-1 shoe (read-only). */
export interface Fair1ShoeRow {
  number: number;
  params: Fair1ShoeParams;
  status: ShoeStatus;
  commitment: Fair1Signed<Fair1CommitmentBody>;
  start: Fair1Signed<Fair1StartBody> | null;
  rounds: number;
  reveal: Fair1Signed<Fair1RevealBody> | null;
}

/** A pb-fair-2 shoe: its secret (the server seed) and its records. */
export interface ShoeRow {
  number: number;
  params: ShoeParams;
  serverSeed: string;
  status: ShoeStatus;
  commitment: Signed<Commitment>;
  start: Signed<Start> | null;
  clientSeed: string | null;
  cut: number | null;
  /** Accepted rounds once the shoe ended (while in play: the session's `shoeRounds`). */
  rounds: number;
  reveal: Signed<Reveal> | null;
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
  record: Signed;
}

type KeyPlace = { at: string; seq: number };

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
  /** Rows read likewise (billed too, at a thousandth of a row written). */
  rowsRead = 0;
  /**
   * The Idempotency-Keys answered in the last day, oldest first: read once per instance from the
   * records, then kept up to date, so that a new key (nearly every change) costs no query, and the
   * records need no index on their key (one more row written per record). Only a hint: a hit is read back from storage, so an entry left by a rolled-back
   * transaction finds nothing.
   */
  #keys: Map<string, KeyPlace> | null = null;
  /** The highest `n` of `shared_transfers` (their order), read once per instance: a gap left by a rolled-back transaction is harmless. */
  #transfersSeen: number | null = null;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Runs one statement to its end, counting the rows it wrote. */
  #exec<T extends Row = Row>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.#sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.rowsWritten += cursor.rowsWritten;
    this.rowsRead += cursor.rowsRead;
    return rows;
  }

  /** One statement of another room's rows (worker/wallet/store.ts), counted with this store's. */
  run<T extends Row = Row>(query: string, ...bindings: SqlStorageValue[]): T[] {
    return this.#exec<T>(query, ...bindings);
  }

  /** A guarded write that must change exactly one row (indexes aside); anything else aborts the transaction. */
  #once(what: string, query: string, ...bindings: SqlStorageValue[]): void {
    const before = this.rowsWritten;
    this.#exec(query, ...bindings);
    if (this.rowsWritten === before) throw new Error(`storage guard: ${what} changed no row`);
  }

  /**
   * The session: its row, and for pb-fair-2 its state from the newest record's row (two reads,
   * the second the last entry of the records' b-tree). A pb-fair-1 session has no records: its
   * row holds its state.
   */
  session(): SessionRow | null {
    const r = this.#exec<Row>(
      `SELECT session.*, newest.* FROM session LEFT JOIN (
         SELECT shoe AS r_shoe, hash AS r_head, balance AS r_balance, shoe_rounds AS r_shoe_rounds, pending_round AS r_pending_round,
                due_at AS r_due_at, rounds_total AS r_rounds_total, staked_total AS r_staked_total, returned_total AS r_returned_total
         FROM records ORDER BY seq DESC LIMIT 1
       ) AS newest ON TRUE WHERE session.id = 1`,
    )[0];
    if (!r) return null;
    // pb-fair-2: the state after the newest record (its row), else (pb-fair-1) the session row's own.
    const at = (column: string): SqlStorageValue => (r.r_head === null ? r[column]! : r[`r_${column}`]!);
    const text = (v: SqlStorageValue) => (v === null ? null : String(v));
    return {
      sessionId: String(r.session_id),
      room: String(r.room) as RoomId,
      affiliate: text(r.affiliate!),
      attribution: String(r.attribution) as Attribution,
      protocol: String(r.protocol) as Protocol,
      playerKey: text(r.player_key!),
      balance: Number(at('balance')),
      currentShoe: Number(r.r_head === null ? r.current_shoe : r.r_shoe),
      head: text(at('head')),
      shoeRounds: Number(at('shoe_rounds')),
      pendingRound: at('pending_round') === null ? null : Number(at('pending_round')),
      dueAt: text(at('due_at')),
      createdAt: String(r.created_at),
      rounds: Number(at('rounds_total')),
      staked: Number(at('staked_total')),
      returned: Number(at('returned_total')),
      ledgerRounds: Number(r.ledger_rounds),
    };
  }

  /**
   * A new pb-fair-2 session's row: what never changes. Its state columns (balance, current shoe,
   * head…) stay 0 or their defaults, unused: the state is in its records' rows.
   */
  insertSession(s: NewSession): void {
    this.#exec(
      `INSERT INTO session (id, session_id, room, affiliate, attribution, protocol, player_key, balance, current_shoe, created_at) VALUES (1, ?, ?, ?, ?, 'pb-fair-2', ?, 0, 0, ?)`,
      s.sessionId,
      s.room,
      s.affiliate,
      s.attribution,
      s.playerKey,
      s.createdAt,
    );
  }

  /** A retired (pb-fair-1) session's balance moved by a shared table: it has no pb-fair-2 chain to record in. */
  setBalance(balance: number): void {
    this.#once('setBalance', `UPDATE session SET balance = ? WHERE id = 1`, balance);
  }

  tokenHashes(): string[] {
    return this.#exec<{ hash: string }>(`SELECT hash FROM tokens`).map((r) => r.hash);
  }

  insertToken(hash: string, issuedAt: string): void {
    this.#exec(`INSERT INTO tokens (hash, issued_at) VALUES (?, ?)`, hash, issuedAt);
  }

  // ---- pb-fair-1 (read-only) ----------------------------------------------------------------------

  /** A pb-fair-1 shoe with its signed records. */
  shoe(number: number): Fair1ShoeRow | null {
    const r = this.#exec<Row>(`SELECT shoes.*, session.shoe_rounds AS live_rounds FROM shoes, session WHERE number = ? AND session.id = 1`, number)[0];
    if (!r) return null;
    return {
      number: Number(r.number),
      params: json<Fair1ShoeParams>(r.params!),
      status: String(r.status) as ShoeStatus,
      commitment: json<Fair1Signed<Fair1CommitmentBody>>(r.commitment!),
      start: jsonOrNull<Fair1Signed<Fair1StartBody>>(r.start!),
      // While the shoe was in play its rounds lived in the session row (schema version 4).
      rounds: Number(r.status === 'in-play' ? r.live_rounds : r.rounds),
      reveal: jsonOrNull<Fair1Signed<Fair1RevealBody>>(r.reveal!),
    };
  }

  receipts(shoe: number): Fair1Signed<Fair1ReceiptBody>[] {
    return this.#exec<{ record: string }>(`SELECT record FROM receipts WHERE shoe = ? ORDER BY round`, shoe).map((r) =>
      json<Fair1Signed<Fair1ReceiptBody>>(r.record),
    );
  }

  lastReceipt(): Fair1Signed<Fair1ReceiptBody> | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM receipts ORDER BY shoe DESC, round DESC LIMIT 1`)[0];
    return r ? json<Fair1Signed<Fair1ReceiptBody>>(r.record) : null;
  }

  // ---- pb-fair-2 ----------------------------------------------------------------------------------

  /** A pb-fair-2 shoe: its seed, params and signed commitment / start / reveal. */
  shoeV2(number: number): ShoeRow | null {
    const r = this.#exec<Row>(
      `SELECT shoes.*, (SELECT shoe_rounds FROM records ORDER BY seq DESC LIMIT 1) AS live_rounds FROM shoes WHERE number = ?`,
      number,
    )[0];
    if (!r) return null;
    return {
      number: Number(r.number),
      params: json<ShoeParams>(r.params!),
      serverSeed: String(r.server_seed),
      status: String(r.status) as ShoeStatus,
      commitment: json<Signed<Commitment>>(r.commitment!),
      start: jsonOrNull<Signed<Start>>(r.start!),
      clientSeed: r.client_seed === null ? null : String(r.client_seed),
      cut: r.cut === null ? null : Number(r.cut),
      rounds: Number(r.status === 'in-play' ? r.live_rounds : r.rounds),
      reveal: jsonOrNull<Signed<Reveal>>(r.reveal!),
    };
  }

  /** A new shoe: its seed stays in this row until the reveal. */
  insertShoe(s: { number: number; params: ShoeParams; serverSeed: string; commitment: Signed<Commitment> }): void {
    this.#exec(
      `INSERT INTO shoes (number, params, server_seed, status, commitment, rounds) VALUES (?, ?, ?, 'awaiting-start', ?, 0)`,
      s.number,
      JSON.stringify(s.params),
      s.serverSeed,
      JSON.stringify(s.commitment),
    );
  }

  startShoe(number: number, start: Signed<Start>): void {
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

  endShoe(number: number, reveal: Signed<Reveal>): void {
    this.#once(
      'endShoe',
      `UPDATE shoes SET status = 'ended', reveal = ?, rounds = ? WHERE number = ? AND status != 'ended'`,
      JSON.stringify(reveal),
      reveal.body.rounds,
      number,
    );
  }

  /**
   * Appends a record to the chain with the session's state after it: one row, the whole write of
   * most changes. `key`: the request it answers. Only onto the record it names as `prev` (the
   * newest one): a chain that moved on meanwhile inserts nothing and the transaction aborts.
   */
  appendRecord(record: Signed, state: SessionState, key?: RecordKey): void {
    const b = record.body as { shoe: number; type: string; round?: number; prev: string | null };
    const cursor = this.#sql.exec(
      `INSERT INTO records (shoe, type, round, hash, record, idempotency_key, request_hash, answered_at,
                            balance, shoe_rounds, pending_round, due_at, rounds_total, staked_total, returned_total)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT hash FROM records ORDER BY seq DESC LIMIT 1) IS ?
       RETURNING seq`,
      b.shoe,
      b.type,
      b.round ?? null,
      record.hash,
      JSON.stringify(record),
      key?.key ?? null,
      key?.requestHash ?? null,
      key?.at ?? null,
      state.balance,
      state.shoeRounds,
      state.pendingRound,
      state.dueAt,
      state.rounds,
      state.staked,
      state.returned,
      b.prev,
    );
    const row = cursor.toArray()[0];
    this.rowsWritten += cursor.rowsWritten;
    this.rowsRead += cursor.rowsRead;
    if (!row) throw new Error(`storage guard: the ${b.type} record does not follow the newest record`);
    if (key) this.#remember(key.key, { seq: Number(row.seq), at: key.at });
  }

  /** The table's records in chain order, or one shoe's. */
  records(shoe?: number): Signed[] {
    const rows =
      shoe === undefined
        ? this.#exec<{ record: string }>(`SELECT record FROM records ORDER BY seq`)
        : this.#exec<{ record: string }>(`SELECT record FROM records WHERE shoe = ? ORDER BY seq`, shoe);
    return rows.map((r) => json<Signed>(r.record));
  }

  /** The newest record of one type, optionally of one shoe and round. */
  lastRecord<T extends FileRecord>(type: T['type'] | null, shoe?: number, round?: number): Signed<T> | null {
    const where: string[] = [];
    const values: SqlStorageValue[] = [];
    if (type !== null) (where.push('type = ?'), values.push(type));
    if (shoe !== undefined) (where.push('shoe = ?'), values.push(shoe));
    if (round !== undefined) (where.push('round = ?'), values.push(round));
    const r = this.#exec<{ record: string }>(
      `SELECT record FROM records ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT 1`,
      ...values,
    )[0];
    return r ? json<Signed<T>>(r.record) : null;
  }

  /** The newest record that is not a transfer: what a player who has not seen the transfers after it follows (FAIRNESS.md §B14). */
  lastPrivateRecord(): Signed | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM records WHERE type != 'transfer' ORDER BY seq DESC LIMIT 1`)[0];
    return r ? json<Signed>(r.record) : null;
  }

  // ---- shared tables' transfers ---------------------------------------------------------------------

  /** The stored outcome of transfer `id`, if it was seen before. */
  transfer(id: string): StoredTransfer | null {
    const r = this.#exec<Row>(`SELECT applied, balance_after FROM shared_transfers WHERE id = ?`, id)[0];
    return r ? { applied: Number(r.applied) === 1, balanceAfter: Number(r.balance_after) } : null;
  }

  /** Keeps a transfer's outcome (applied or refused), in the transaction that changes the balance. */
  insertTransfer(t: WalletTransfer, outcome: StoredTransfer, at: string): void {
    this.#transfersSeen ??= Number(this.#exec<{ n: number }>(`SELECT COALESCE(MAX(n), 0) AS n FROM shared_transfers`)[0]!.n);
    this.#exec(
      `INSERT INTO shared_transfers (id, n, table_id, round, kind, amount, applied, balance_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t.id,
      ++this.#transfersSeen,
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
  transfers(): Array<Omit<WalletTransfer, 'shoe'> & StoredTransfer> {
    return this.#exec<Row>(`SELECT * FROM shared_transfers ORDER BY n`).map((r) => ({
      id: String(r.id),
      table: String(r.table_id),
      round: Number(r.round),
      kind: String(r.kind) as WalletTransfer['kind'],
      amount: Number(r.amount),
      applied: Number(r.applied) === 1,
      balanceAfter: Number(r.balance_after),
    }));
  }

  /** The record right after `seq`, if any. */
  recordAfter(seq: number): Signed | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM records WHERE seq > ? ORDER BY seq LIMIT 1`, seq)[0];
    return r ? json<Signed>(r.record) : null;
  }

  /** The record that answered `key`, if it was answered at `since` (ISO time) or later. */
  answered(key: string, since: string): KeyedRecord | null {
    const place = this.#recentKeys(since).get(key);
    if (!place || place.at < since) return null;
    const r = this.#exec<Row>(`SELECT record, request_hash FROM records WHERE seq = ? AND idempotency_key = ?`, place.seq, key)[0];
    return r ? { requestHash: String(r.request_hash), seq: place.seq, record: json<Signed>(r.record!) } : null;
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
