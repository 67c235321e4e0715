/**
 * The rows of one operator's Durable Object (operator.ts), in its SQLite:
 *
 * - `nonces`: every nonce of a signed call (launch or operator call) accepted, with when; a nonce
 *   is refused while it is kept, and kept `NONCE_KEEP_SECONDS` (twice the ±5 min window), past
 *   which the timestamp check refuses its message anyway.
 * - `launches`: one row per launch token, keyed by the token's SHA-256 (the token itself is never
 *   stored): the launch, its expiry, and once redeemed the redemption's Idempotency-Key, request
 *   hash, session and first answer (with the session's bearer token, so that a retry gets the same
 *   session). Kept `LAUNCH_KEEP_MS`, then deleted by the alarm, answer and token with it.
 * - `sessions`: the operator's sessions (session id, player, currency, room, created, ended).
 */
import type { RoomId } from '../../shared/index.ts';
import type { LaunchRequest } from '../../shared/wallet/launch.ts';
import { migrate, type Migration } from '../session/schema.ts';

/** A nonce is kept this long: twice the signature window (WALLET.md "Signatures"). */
export const NONCE_KEEP_SECONDS = 600;

/** A launch row, redeemed or not, is kept a day: long enough for any retry of its redemption. */
export const LAUNCH_KEEP_MS = 24 * 60 * 60 * 1000;

export const OPERATOR_MIGRATIONS: readonly Migration[] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE nonces (nonce TEXT PRIMARY KEY, seen_at INTEGER NOT NULL) WITHOUT ROWID`,
    `CREATE INDEX nonces_seen ON nonces (seen_at)`,
    `CREATE TABLE launches (
       token_hash TEXT PRIMARY KEY,
       launch TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       expires_at INTEGER NOT NULL,
       redeemed_at INTEGER,
       idem_key TEXT,
       request_hash TEXT,
       session_id TEXT,
       answer TEXT
     ) WITHOUT ROWID`,
    `CREATE INDEX launches_created ON launches (created_at)`,
    `CREATE TABLE sessions (
       session_id TEXT PRIMARY KEY,
       player_id TEXT NOT NULL,
       currency TEXT NOT NULL,
       room TEXT NOT NULL,
       created_at TEXT NOT NULL,
       ended_at TEXT,
       end_code TEXT
     ) WITHOUT ROWID`,
    `CREATE INDEX sessions_player ON sessions (player_id)`,
    `CREATE INDEX sessions_created ON sessions (created_at)`,
  ],
];

export interface LaunchRow {
  launch: LaunchRequest;
  createdAt: number;
  expiresAt: number;
  redeemed: { at: number; idemKey: string; requestHash: string; sessionId: string; answer: string } | null;
}

export interface OperatorSession {
  sessionId: string;
  playerId: string;
  currency: string;
  room: RoomId;
  createdAt: string;
  endedAt: string | null;
  endCode: string | null;
}

export class OperatorStore {
  readonly #sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.#sql = storage.sql;
    storage.transactionSync(() => migrate(this.#sql, OPERATOR_MIGRATIONS));
  }

  /**
   * Whether the nonce is refused (seen within the kept period); a new one is recorded. Synchronous:
   * check and record cannot interleave with another call's.
   */
  nonceRefused(nonce: string, nowSeconds: number): boolean {
    this.#sql.exec(`DELETE FROM nonces WHERE seen_at < ?`, nowSeconds - NONCE_KEEP_SECONDS);
    if (this.#sql.exec(`SELECT 1 FROM nonces WHERE nonce = ?`, nonce).toArray().length > 0) return true;
    this.#sql.exec(`INSERT INTO nonces (nonce, seen_at) VALUES (?, ?)`, nonce, nowSeconds);
    return false;
  }

  insertLaunch(tokenHash: string, launch: LaunchRequest, createdAt: number, expiresAt: number): void {
    this.#sql.exec(
      `INSERT INTO launches (token_hash, launch, created_at, expires_at) VALUES (?, ?, ?, ?)`,
      tokenHash,
      JSON.stringify(launch),
      createdAt,
      expiresAt,
    );
  }

  launch(tokenHash: string): LaunchRow | null {
    const row = this.#sql
      .exec<{
        launch: string;
        created_at: number;
        expires_at: number;
        redeemed_at: number | null;
        idem_key: string | null;
        request_hash: string | null;
        session_id: string | null;
        answer: string | null;
      }>(`SELECT launch, created_at, expires_at, redeemed_at, idem_key, request_hash, session_id, answer FROM launches WHERE token_hash = ?`, tokenHash)
      .toArray()[0];
    if (!row) return null;
    return {
      launch: JSON.parse(row.launch) as LaunchRequest,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      redeemed:
        row.redeemed_at === null
          ? null
          : { at: row.redeemed_at, idemKey: row.idem_key!, requestHash: row.request_hash!, sessionId: row.session_id!, answer: row.answer! },
    };
  }

  /** Marks the launch redeemed by this request and session, and indexes the session, in one transaction. */
  redeem(
    storage: DurableObjectStorage,
    tokenHash: string,
    redemption: { at: number; idemKey: string; requestHash: string; answer: string },
    session: OperatorSession,
  ): void {
    storage.transactionSync(() => {
      const changed = this.#sql.exec(
        `UPDATE launches SET redeemed_at = ?, idem_key = ?, request_hash = ?, session_id = ?, answer = ? WHERE token_hash = ? AND redeemed_at IS NULL`,
        redemption.at,
        redemption.idemKey,
        redemption.requestHash,
        session.sessionId,
        redemption.answer,
        tokenHash,
      ).rowsWritten;
      if (changed !== 1) throw new Error('the launch token was redeemed meanwhile');
      this.#sql.exec(
        `INSERT INTO sessions (session_id, player_id, currency, room, created_at) VALUES (?, ?, ?, ?, ?)`,
        session.sessionId,
        session.playerId,
        session.currency,
        session.room,
        session.createdAt,
      );
    });
  }

  /** Deletes launches past `LAUNCH_KEEP_MS` (their answers and tokens with them); the oldest left, or null. */
  pruneLaunches(now: number): number | null {
    this.#sql.exec(`DELETE FROM launches WHERE created_at <= ?`, now - LAUNCH_KEEP_MS);
    return this.#sql.exec<{ at: number | null }>(`SELECT MIN(created_at) AS at FROM launches`).toArray()[0]?.at ?? null;
  }

  session(sessionId: string): OperatorSession | null {
    return this.#sessions(`WHERE session_id = ?`, sessionId)[0] ?? null;
  }

  /** The player's sessions not ended by the operator yet. */
  openSessionsOf(playerId: string): OperatorSession[] {
    return this.#sessions(`WHERE player_id = ? AND ended_at IS NULL ORDER BY created_at`, playerId);
  }

  /** Every session created before `to` (ISO time): the ones that can have a wallet call before it. */
  sessionsCreatedBefore(to: string): OperatorSession[] {
    return this.#sessions(`WHERE created_at < ? ORDER BY created_at`, to);
  }

  markEnded(sessionId: string, code: string, at: string): void {
    this.#sql.exec(`UPDATE sessions SET ended_at = ?, end_code = ? WHERE session_id = ? AND ended_at IS NULL`, at, code, sessionId);
  }

  #sessions(where: string, ...args: string[]): OperatorSession[] {
    return this.#sql
      .exec<{
        session_id: string;
        player_id: string;
        currency: string;
        room: string;
        created_at: string;
        ended_at: string | null;
        end_code: string | null;
      }>(`SELECT session_id, player_id, currency, room, created_at, ended_at, end_code FROM sessions ${where}`, ...args)
      .toArray()
      .map((r) => ({
        sessionId: r.session_id,
        playerId: r.player_id,
        currency: r.currency,
        room: r.room as RoomId,
        createdAt: r.created_at,
        endedAt: r.ended_at,
        endCode: r.end_code,
      }));
  }
}
