/**
 * Typed reads and writes of a table session's rows (schema in `schema.ts`). Synchronous, like
 * `ctx.storage.sql`: the caller groups the writes of one change into one `transactionSync`.
 * Signed records are stored as their JSON, exactly as they were sent.
 */
import type { Attribution, CommitmentBody, ReceiptBody, RevealBody, RoomId, ShoeParams, ShoeStatus, Signed, StartBody } from '../shared/index.ts';

export interface SessionRow {
  sessionId: string;
  room: RoomId;
  affiliate: string | null;
  /** How the affiliate was attributed at creation (attribution.ts); 'claimed' for older sessions. */
  attribution: Attribution;
  balance: number;
  currentShoe: number;
  /** Hash of the newest record of the chain (commitment, start, receipt or reveal). */
  head: string | null;
  createdAt: string;
  /** Running totals of every round of the session (the ledger's figures). */
  rounds: number;
  staked: number;
  returned: number;
  /** Rounds the operator's ledger has acknowledged; -1 until it knows the session. */
  ledgerRounds: number;
}

/** What a new session row is given; the totals start at zero. */
export type NewSession = Omit<SessionRow, 'rounds' | 'staked' | 'returned' | 'ledgerRounds'>;

/** What one change does to the session row: a single guarded UPDATE (one row written). */
export interface SessionChange {
  head: string;
  balance?: number;
  currentShoe?: number;
  /** The current shoe's dealing position: set when it starts, after every round; null when a new shoe is committed. */
  position?: { rounds: number; next: number | null };
  /** A settled round's stake and return, added to the running totals. */
  round?: { staked: number; returned: number };
}

export interface ShoeRow {
  number: number;
  params: ShoeParams;
  serverSeed: string;
  status: ShoeStatus;
  commitment: Signed<CommitmentBody>;
  start: Signed<StartBody> | null;
  clientSeed: string | null;
  cut: number | null;
  /** Index of the next card in the stack (shoe mode), set when the shoe starts. */
  nextPosition: number | null;
  /** While the shoe is in play, its rounds and position live in the session row (schema version 3). */
  rounds: number;
  reveal: Signed<RevealBody> | null;
}

/** A shoe without its signed records. */
export type ShoeState = Omit<ShoeRow, 'commitment' | 'start' | 'reveal'>;

/** The answer kept for an Idempotency-Key: stored as such, or the receipt a round's answer is rebuilt from. */
export type StoredAnswer = { requestHash: string; status: number; body: unknown } | { requestHash: string; receipt: Signed<ReceiptBody> };

/** A round's Idempotency-Key, kept with its receipt. */
export interface ReceiptKey {
  key: string;
  requestHash: string;
  /** ISO time of the answer (the key is remembered for a day from then). */
  at: string;
}

/** Where the answer to a recent Idempotency-Key is kept (a round's receipt, or the `idempotency` table), and when it was given. */
type KeyPlace = { at: string; shoe: number; round: number } | { at: string; stored: true };

type Row = Record<string, SqlStorageValue>;


function json<T>(text: SqlStorageValue): T {
  return JSON.parse(String(text)) as T;
}

function jsonOrNull<T>(text: SqlStorageValue): T | null {
  return text === null ? null : json<T>(text);
}

function shoeState(r: Row): ShoeState {
  const live = r.status === 'in-play';
  const position = live ? r.live_position : r.next_position;
  return {
    number: Number(r.number),
    params: json<ShoeParams>(r.params!),
    serverSeed: String(r.server_seed),
    status: String(r.status) as ShoeStatus,
    clientSeed: r.client_seed === null ? null : String(r.client_seed),
    cut: r.cut === null ? null : Number(r.cut),
    nextPosition: position === null ? null : Number(position),
    rounds: Number(live ? r.live_rounds : r.rounds),
  };
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
   * receipts and the `idempotency` table, then kept up to date, so that a new key (nearly every
   * change) costs no query, and the receipts need no index on their key (one more row written per
   * round). Only a hint: a hit is read back from storage, so an entry left by a rolled-back
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
      balance: Number(r.balance),
      currentShoe: Number(r.current_shoe),
      head: r.head === null ? null : String(r.head),
      createdAt: String(r.created_at),
      rounds: Number(r.rounds_total),
      staked: Number(r.staked_total),
      returned: Number(r.returned_total),
      ledgerRounds: Number(r.ledger_rounds),
    };
  }

  insertSession(s: NewSession): void {
    this.#exec(
      `INSERT INTO session (id, session_id, room, affiliate, attribution, balance, current_shoe, head, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.sessionId, s.room, s.affiliate, s.attribution, s.balance, s.currentShoe, s.head, s.createdAt,
    );
  }

  /**
   * Applies one change to the session row. `expected`: the shoe in play and its rounds before this
   * round; a row that moved on meanwhile matches nothing and the transaction aborts.
   */
  updateSession(change: SessionChange, expected?: { shoe: number; rounds: number }): void {
    const set: string[] = ['head = ?'];
    const values: SqlStorageValue[] = [change.head];
    const assign = (column: string, value: SqlStorageValue) => {
      set.push(`${column} = ?`);
      values.push(value);
    };
    if (change.balance !== undefined) assign('balance', change.balance);
    if (change.currentShoe !== undefined) assign('current_shoe', change.currentShoe);
    if (change.position) {
      assign('shoe_rounds', change.position.rounds);
      assign('next_position', change.position.next);
    }
    if (change.round) {
      set.push('rounds_total = rounds_total + 1', 'staked_total = staked_total + ?', 'returned_total = returned_total + ?');
      values.push(change.round.staked, change.round.returned);
    }
    let where = 'id = 1';
    if (expected) {
      where += ' AND current_shoe = ? AND shoe_rounds = ?';
      values.push(expected.shoe, expected.rounds);
    }
    this.#once('updateSession', `UPDATE session SET ${set.join(', ')} WHERE ${where}`, ...values);
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

  /** A shoe with its signed records. */
  shoe(number: number): ShoeRow | null {
    const r = this.#shoeRow(number, 'shoes.*');
    if (!r) return null;
    return {
      ...shoeState(r),
      commitment: json<Signed<CommitmentBody>>(r.commitment!),
      start: jsonOrNull<Signed<StartBody>>(r.start!),
      reveal: jsonOrNull<Signed<RevealBody>>(r.reveal!),
    };
  }

  /** A shoe without its signed records (what dealing a round needs: no JSON of records to parse). */
  shoeState(number: number): ShoeState | null {
    const r = this.#shoeRow(number, 'shoes.number, shoes.params, shoes.server_seed, shoes.status, shoes.client_seed, shoes.cut, shoes.rounds, shoes.next_position');
    return r ? shoeState(r) : null;
  }

  /** The shoe's row, with the dealing position kept in the session row (only the current shoe is ever in play). */
  #shoeRow(number: number, columns: string): Row | undefined {
    return this.#exec<Row>(
      `SELECT ${columns}, session.shoe_rounds AS live_rounds, session.next_position AS live_position FROM shoes, session WHERE number = ? AND session.id = 1`,
      number,
    )[0];
  }

  insertShoe(s: { number: number; params: ShoeParams; serverSeed: string; commitment: Signed<CommitmentBody> }): void {
    this.#exec(
      `INSERT INTO shoes (number, params, server_seed, status, commitment, rounds) VALUES (?, ?, ?, 'awaiting-start', ?, 0)`,
      s.number, JSON.stringify(s.params), s.serverSeed, JSON.stringify(s.commitment),
    );
  }

  /** The shoe's start record; its dealing position goes in the session row. */
  startShoe(number: number, start: Signed<StartBody>): void {
    this.#once(
      'startShoe',
      `UPDATE shoes SET status = 'in-play', start = ?, client_seed = ?, cut = ? WHERE number = ? AND status = 'awaiting-start'`,
      JSON.stringify(start), start.body.clientSeed, start.body.cut, number,
    );
  }

  /** The shoe's reveal, with its final rounds and position (kept in the session row while it was in play). */
  endShoe(number: number, reveal: Signed<RevealBody>, rounds: number, nextPosition: number | null): void {
    this.#once(
      'endShoe',
      `UPDATE shoes SET status = 'ended', reveal = ?, rounds = ?, next_position = ? WHERE number = ? AND status != 'ended'`,
      JSON.stringify(reveal), rounds, nextPosition, number,
    );
  }

  /** One row: the receipt, and the Idempotency-Key its round's answer is rebuilt from. */
  insertReceipt(receipt: Signed<ReceiptBody>, key: ReceiptKey): void {
    this.#exec(
      `INSERT INTO receipts (shoe, round, hash, record, idempotency_key, request_hash, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      receipt.body.shoe, receipt.body.round, receipt.hash, JSON.stringify(receipt), key.key, key.requestHash, key.at,
    );
    this.#remember(key.key, { shoe: receipt.body.shoe, round: receipt.body.round, at: key.at });
  }

  receipts(shoe: number): Signed<ReceiptBody>[] {
    return this.#exec<{ record: string }>(`SELECT record FROM receipts WHERE shoe = ? ORDER BY round`, shoe).map((r) => json<Signed<ReceiptBody>>(r.record));
  }

  lastReceipt(): Signed<ReceiptBody> | null {
    const r = this.#exec<{ record: string }>(`SELECT record FROM receipts ORDER BY shoe DESC, round DESC LIMIT 1`)[0];
    return r ? json<Signed<ReceiptBody>>(r.record) : null;
  }

  /** The answer kept for `key` if it was given at `since` (ISO time) or later. */
  answer(key: string, since: string): StoredAnswer | null {
    const place = this.#recentKeys(since).get(key);
    if (!place || place.at < since) return null;
    if ('shoe' in place) {
      const r = this.#exec<Row>(`SELECT record, request_hash FROM receipts WHERE shoe = ? AND round = ? AND idempotency_key = ?`, place.shoe, place.round, key)[0];
      return r ? { requestHash: String(r.request_hash), receipt: json<Signed<ReceiptBody>>(r.record!) } : null;
    }
    // The other changes' answers, and those of rounds settled before schema version 3.
    const r = this.#exec<Row>(`SELECT request_hash, status, answer FROM idempotency WHERE key = ?`, key)[0];
    return r ? { requestHash: String(r.request_hash), status: Number(r.status), body: json(r.answer!) } : null;
  }

  /** The keys answered since `since`: read once (the receipts newest first, down to `since`), then kept up to date. */
  #recentKeys(since: string): Map<string, KeyPlace> {
    if (!this.#keys) {
      const recent: Array<[string, KeyPlace]> = [];
      for (const r of this.#sql.exec<Row>(`SELECT shoe, round, idempotency_key, answered_at FROM receipts ORDER BY shoe DESC, round DESC`)) {
        if (r.answered_at === null || String(r.answered_at) < since) break;
        recent.push([String(r.idempotency_key), { shoe: Number(r.shoe), round: Number(r.round), at: String(r.answered_at) }]);
      }
      for (const r of this.#sql.exec<Row>(`SELECT key, created_at FROM idempotency WHERE created_at >= ?`, since)) {
        recent.push([String(r.key), { stored: true, at: String(r.created_at) }]);
      }
      this.#keys = new Map(recent.sort(([, a], [, b]) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)));
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

  /** Forgets answers stored before `before` (ISO time): their keys may be used again. */
  pruneAnswers(before: string): void {
    this.#exec(`DELETE FROM idempotency WHERE created_at < ?`, before);
  }

  insertAnswer(key: string, requestHash: string, status: number, body: unknown, createdAt: string): void {
    this.#exec(
      `INSERT INTO idempotency (key, request_hash, status, answer, created_at) VALUES (?, ?, ?, ?, ?)`,
      key, requestHash, status, JSON.stringify(body), createdAt,
    );
    this.#remember(key, { stored: true, at: createdAt });
  }
}
