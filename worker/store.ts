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
  rounds: number;
  reveal: Signed<RevealBody> | null;
}

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: unknown;
}

type Row = Record<string, SqlStorageValue>;

/** A guarded write that must change exactly one row; anything else aborts the transaction. */
function once(cursor: SqlStorageCursor<Row>, what: string): void {
  cursor.toArray();
  if (cursor.rowsWritten !== 1) throw new Error(`storage guard: ${what} changed ${cursor.rowsWritten} rows, expected 1`);
}

function json<T>(text: SqlStorageValue): T {
  return JSON.parse(String(text)) as T;
}

function jsonOrNull<T>(text: SqlStorageValue): T | null {
  return text === null ? null : json<T>(text);
}

export class TableStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  session(): SessionRow | null {
    const r = this.#sql.exec<Row>(`SELECT * FROM session WHERE id = 1`).toArray()[0];
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
    this.#sql.exec(
      `INSERT INTO session (id, session_id, room, affiliate, attribution, balance, current_shoe, head, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.sessionId, s.room, s.affiliate, s.attribution, s.balance, s.currentShoe, s.head, s.createdAt,
    );
  }

  updateSession(change: { balance?: number; currentShoe?: number; head: string }): void {
    once(this.#sql.exec(
      `UPDATE session SET balance = COALESCE(?, balance), current_shoe = COALESCE(?, current_shoe), head = ? WHERE id = 1`,
      change.balance ?? null, change.currentShoe ?? null, change.head,
    ), 'updateSession');
  }

  /** Adds one round's stake and return to the session's running totals. */
  addRound(staked: number, returned: number): void {
    once(this.#sql.exec(
      `UPDATE session SET rounds_total = rounds_total + 1, staked_total = staked_total + ?, returned_total = returned_total + ? WHERE id = 1`,
      staked, returned,
    ), 'addRound');
  }

  /** Records that the ledger has the totals up to `rounds` (never moves back). */
  markLedger(rounds: number): void {
    this.#sql.exec(`UPDATE session SET ledger_rounds = MAX(ledger_rounds, ?) WHERE id = 1`, rounds);
  }

  tokenHashes(): string[] {
    return this.#sql.exec<{ hash: string }>(`SELECT hash FROM tokens`).toArray().map((r) => r.hash);
  }

  insertToken(hash: string, issuedAt: string): void {
    this.#sql.exec(`INSERT INTO tokens (hash, issued_at) VALUES (?, ?)`, hash, issuedAt);
  }

  shoe(number: number): ShoeRow | null {
    const r = this.#sql.exec<Row>(`SELECT * FROM shoes WHERE number = ?`, number).toArray()[0];
    if (!r) return null;
    return {
      number: Number(r.number),
      params: json<ShoeParams>(r.params!),
      serverSeed: String(r.server_seed),
      status: String(r.status) as ShoeStatus,
      commitment: json<Signed<CommitmentBody>>(r.commitment!),
      start: jsonOrNull<Signed<StartBody>>(r.start!),
      clientSeed: r.client_seed === null ? null : String(r.client_seed),
      cut: r.cut === null ? null : Number(r.cut),
      nextPosition: r.next_position === null ? null : Number(r.next_position),
      rounds: Number(r.rounds),
      reveal: jsonOrNull<Signed<RevealBody>>(r.reveal!),
    };
  }

  insertShoe(s: { number: number; params: ShoeParams; serverSeed: string; commitment: Signed<CommitmentBody> }): void {
    this.#sql.exec(
      `INSERT INTO shoes (number, params, server_seed, status, commitment, rounds) VALUES (?, ?, ?, 'awaiting-start', ?, 0)`,
      s.number, JSON.stringify(s.params), s.serverSeed, JSON.stringify(s.commitment),
    );
  }

  startShoe(number: number, start: Signed<StartBody>, nextPosition: number): void {
    once(this.#sql.exec(
      `UPDATE shoes SET status = 'in-play', start = ?, client_seed = ?, cut = ?, next_position = ? WHERE number = ? AND status = 'awaiting-start'`,
      JSON.stringify(start), start.body.clientSeed, start.body.cut, nextPosition, number,
    ), 'startShoe');
  }

  advanceShoe(number: number, nextPosition: number, rounds: number): void {
    once(this.#sql.exec(`UPDATE shoes SET next_position = ?, rounds = ? WHERE number = ? AND status = 'in-play'`, nextPosition, rounds, number), 'advanceShoe');
  }

  endShoe(number: number, reveal: Signed<RevealBody>): void {
    once(this.#sql.exec(`UPDATE shoes SET status = 'ended', reveal = ? WHERE number = ? AND status != 'ended'`, JSON.stringify(reveal), number), 'endShoe');
  }

  insertReceipt(receipt: Signed<ReceiptBody>): void {
    this.#sql.exec(
      `INSERT INTO receipts (shoe, round, hash, record) VALUES (?, ?, ?, ?)`,
      receipt.body.shoe, receipt.body.round, receipt.hash, JSON.stringify(receipt),
    );
  }

  receipts(shoe: number): Signed<ReceiptBody>[] {
    return this.#sql
      .exec<{ record: string }>(`SELECT record FROM receipts WHERE shoe = ? ORDER BY round`, shoe)
      .toArray()
      .map((r) => json<Signed<ReceiptBody>>(r.record));
  }

  lastReceipt(): Signed<ReceiptBody> | null {
    const r = this.#sql.exec<{ record: string }>(`SELECT record FROM receipts ORDER BY shoe DESC, round DESC LIMIT 1`).toArray()[0];
    return r ? json<Signed<ReceiptBody>>(r.record) : null;
  }

  answer(key: string): StoredAnswer | null {
    const r = this.#sql.exec<Row>(`SELECT request_hash, status, answer FROM idempotency WHERE key = ?`, key).toArray()[0];
    return r ? { requestHash: String(r.request_hash), status: Number(r.status), body: json(r.answer!) } : null;
  }

  /** Forgets answers stored before `before` (ISO time): their keys may be used again. */
  pruneAnswers(before: string): void {
    this.#sql.exec(`DELETE FROM idempotency WHERE created_at < ?`, before);
  }

  insertAnswer(key: string, requestHash: string, status: number, body: unknown, createdAt: string): void {
    this.#sql.exec(
      `INSERT INTO idempotency (key, request_hash, status, answer, created_at) VALUES (?, ?, ?, ?, ?)`,
      key, requestHash, status, JSON.stringify(body), createdAt,
    );
  }
}
