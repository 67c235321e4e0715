/**
 * The table session's SQLite schema, versioned in code. `MIGRATIONS[i]` takes the schema from
 * version i to i + 1; the version lives in `meta`. Migrations run inside one `transactionSync`,
 * so a table is never left half-migrated. Append new migrations; never edit a released one.
 *
 * Rows:
 * - `session`: exactly one row (id = 1): the room, the balance (CHECK ≥ 0: a bug that would make
 *   it negative aborts the whole transaction instead), the head of the record chain.
 * - `tokens`: SHA-256 of every bearer token issued for this session (never the token).
 * - `shoes`: one row per committed shoe: parameters, the server seed (never sent before the
 *   reveal), the signed commitment / start / reveal records as JSON, the dealing position.
 * - `receipts`: every signed receipt, by shoe and round.
 * - `idempotency`: key → request hash and the stored answer, kept for 24 hours.
 *
 * Version 2 adds to `session` the table's running totals (rounds, staked, returned; updated in
 * each round's transaction) and `ledger_rounds`, how many of those rounds the operator's ledger
 * has acknowledged (-1: the ledger does not know the session yet). See `ledger/ledger.ts`. No longer
 * written: the table keeps the acknowledgment in memory (a row per push saved); what is stored
 * is still a true lower bound.
 *
 * Version 3 adds to `session` its `attribution` (signed / origin / claimed, `embed/attribution.ts`).
 * `tokens` holds one hash per session since replays of a creation return the first token; rows
 * from older versions may hold more, and they stay valid.
 *
 * Version 4 makes a settled round write two rows (SQLite-backed Durable Objects are billed per
 * row written, each index entry counting as one more): its receipt and the session row.
 * - `session` also holds the dealing position of the current shoe while it is in play
 *   (`shoe_rounds`, `next_position`), so a round no longer updates its `shoes` row; that row
 *   gets its final rounds and position when the shoe ends.
 * - `receipts` becomes a WITHOUT ROWID table (its primary key was a second b-tree, one more row
 *   per receipt) and carries the round's Idempotency-Key, request hash and the time of the
 *   answer: a replayed round's answer is rebuilt from its receipt instead of being stored again
 *   in `idempotency` (which keeps the answers of the other changes, and of rounds settled before
 *   version 3).
 *
 * Version 5 is pb-fair-2 (FAIRNESS.md part II). Sessions created before it keep `protocol`
 * 'pb-fair-1' and stay readable; their changes are refused.
 * - `session` gains `protocol`, the player's public key (`player_key`), the round waiting for its
 *   secret (`pending_round`, its stake already debited) and `due_at`, when the table acts on its
 *   own (void the pending round; reveal a shoe left idle after a void). `shoe_rounds` counts the
 *   current shoe's accepted rounds.
 * - `records`: every pb-fair-2 record of the table in chain order (one b-tree: `seq` is the
 *   rowid). The record that answers a request carries its Idempotency-Key, request hash and the
 *   time of the answer, so every answer is rebuilt from the records and none is stored twice.
 *   `shoes` keeps each shoe's server seed, params, status and its commitment / start / reveal.
 *
 * Version 6 makes a phase of a settled round write one row, its record (billed rows again: 2 per
 * settled round instead of 4).
 * - `records` rows also state the session after their record: `balance` (CHECK ≥ 0), the current
 *   shoe's accepted rounds, the pending round, `due_at` and the running totals. A pb-fair-2
 *   session's state is its newest record's row (its shoe, its hash as the head), so a change
 *   appends its record and writes no session row; the append is guarded by the record's `prev`
 *   (it must follow the newest record). Older rows keep NULLs there: only the newest is read, and
 *   the migration copies the session row's state into it. In a pb-fair-2 session's row, `balance`,
 *   `current_shoe`, `head`, `shoe_rounds`, `pending_round`, `due_at` and the totals are no longer
 *   kept (pb-fair-1 sessions, which have no records, still keep theirs there).
 * - `shared_transfers` (until now created on a session's first transfer) is part of the schema,
 *   WITHOUT ROWID (its primary key was a second b-tree, one more row per transfer), with `n`, the
 *   order of the transfers (the rowid was).
 * - `tokens` becomes WITHOUT ROWID for the same reason.
 *
 * Version 7 is wallet mode (WALLET.md; worker/wallet/). Play-mode sessions write none of it.
 * - `wallet_session`: one row (id = 1) for a wallet-mode session: the operator, player, currency,
 *   language, return URL, the player's limits and the room's limits in minor units (from the
 *   launch), the wallet's opening balance, and the responsible-gaming state that is not derived
 *   from the records' running totals (the last reality check, one pending, the session's end).
 *   Written at creation and when that state changes, never by an ordinary round.
 * - `wallet_calls` (WITHOUT ROWID, keyed by the transaction id): every debit, credit and rollback.
 *   A debit is written `sending` before it is sent (its `attempt`, the number of the debit in its
 *   shoe, taken), then `acknowledged`, `refused` or `unknown`; an unknown debit's rollback is
 *   written with it. Credits and rollbacks are the outbox: `pending` with `next_try_at` (ms) and
 *   `attempts`, until `acknowledged`, or `stuck` on a refusal no retry changes. `balance` and
 *   `answered_n` keep the wallet's answered balance and the order of the answers: the session's
 *   balance is the newest one. No index: a session's calls are read by scanning its own rows.
 */

export type Migration = readonly string[];

export const MIGRATIONS: readonly Migration[] = [
  // 0 → 1
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE session (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       session_id TEXT NOT NULL,
       room TEXT NOT NULL,
       affiliate TEXT,
       balance INTEGER NOT NULL CHECK (balance >= 0),
       current_shoe INTEGER NOT NULL,
       head TEXT,
       created_at TEXT NOT NULL
     )`,
    `CREATE TABLE tokens (hash TEXT PRIMARY KEY, issued_at TEXT NOT NULL)`,
    `CREATE TABLE shoes (
       number INTEGER PRIMARY KEY,
       params TEXT NOT NULL,
       server_seed TEXT NOT NULL,
       status TEXT NOT NULL CHECK (status IN ('awaiting-start', 'in-play', 'ended')),
       commitment TEXT NOT NULL,
       start TEXT,
       client_seed TEXT,
       cut INTEGER,
       next_position INTEGER,
       rounds INTEGER NOT NULL DEFAULT 0,
       reveal TEXT
     )`,
    `CREATE TABLE receipts (
       shoe INTEGER NOT NULL,
       round INTEGER NOT NULL,
       hash TEXT NOT NULL,
       record TEXT NOT NULL,
       PRIMARY KEY (shoe, round)
     )`,
    `CREATE TABLE idempotency (
       key TEXT PRIMARY KEY,
       request_hash TEXT NOT NULL,
       status INTEGER NOT NULL,
       answer TEXT NOT NULL,
       created_at TEXT NOT NULL
     )`,
    `CREATE INDEX idempotency_by_age ON idempotency (created_at)`,
  ],
  // 1 → 2: running totals for the operator's ledger, backfilled from the receipts already signed.
  [
    `ALTER TABLE session ADD COLUMN rounds_total INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE session ADD COLUMN staked_total INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE session ADD COLUMN returned_total INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE session ADD COLUMN ledger_rounds INTEGER NOT NULL DEFAULT -1`,
    `UPDATE session SET
       rounds_total = (SELECT COUNT(*) FROM receipts),
       staked_total = (SELECT COALESCE(SUM(json_extract(record, '$.body.staked')), 0) FROM receipts),
       returned_total = (SELECT COALESCE(SUM(json_extract(record, '$.body.returned')), 0) FROM receipts)`,
  ],
  // 2 → 3: how the session's affiliate was attributed (embed/attribution.ts); older sessions proved nothing.
  [`ALTER TABLE session ADD COLUMN attribution TEXT NOT NULL DEFAULT 'claimed' CHECK (attribution IN ('signed', 'origin', 'claimed'))`],
  // 3 → 4: two rows written per round (see above); the current shoe's position moves to the session.
  [
    `ALTER TABLE session ADD COLUMN shoe_rounds INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE session ADD COLUMN next_position INTEGER`,
    `UPDATE session SET
       shoe_rounds = COALESCE((SELECT rounds FROM shoes WHERE number = session.current_shoe), 0),
       next_position = (SELECT next_position FROM shoes WHERE number = session.current_shoe)`,
    `CREATE TABLE receipts_v4 (
       shoe INTEGER NOT NULL,
       round INTEGER NOT NULL,
       hash TEXT NOT NULL,
       record TEXT NOT NULL,
       idempotency_key TEXT,
       request_hash TEXT,
       answered_at TEXT,
       PRIMARY KEY (shoe, round)
     ) WITHOUT ROWID`,
    `INSERT INTO receipts_v4 (shoe, round, hash, record) SELECT shoe, round, hash, record FROM receipts`,
    `DROP TABLE receipts`,
    `ALTER TABLE receipts_v4 RENAME TO receipts`,
  ],
  // 4 → 5: pb-fair-2 (see above); existing sessions stay pb-fair-1.
  [
    `ALTER TABLE session ADD COLUMN protocol TEXT NOT NULL DEFAULT 'pb-fair-1' CHECK (protocol IN ('pb-fair-1', 'pb-fair-2'))`,
    `ALTER TABLE session ADD COLUMN player_key TEXT`,
    `ALTER TABLE session ADD COLUMN pending_round INTEGER`,
    `ALTER TABLE session ADD COLUMN due_at TEXT`,
    `CREATE TABLE records (
       seq INTEGER PRIMARY KEY,
       shoe INTEGER NOT NULL,
       type TEXT NOT NULL,
       round INTEGER,
       hash TEXT NOT NULL,
       record TEXT NOT NULL,
       idempotency_key TEXT,
       request_hash TEXT,
       answered_at TEXT
     )`,
  ],
  // 5 → 6: one row per phase (see above).
  [
    `ALTER TABLE records ADD COLUMN balance INTEGER CHECK (balance >= 0)`,
    `ALTER TABLE records ADD COLUMN shoe_rounds INTEGER`,
    `ALTER TABLE records ADD COLUMN pending_round INTEGER`,
    `ALTER TABLE records ADD COLUMN due_at TEXT`,
    `ALTER TABLE records ADD COLUMN rounds_total INTEGER`,
    `ALTER TABLE records ADD COLUMN staked_total INTEGER`,
    `ALTER TABLE records ADD COLUMN returned_total INTEGER`,
    `UPDATE records SET (balance, shoe_rounds, pending_round, due_at, rounds_total, staked_total, returned_total) =
       (SELECT balance, shoe_rounds, pending_round, due_at, rounds_total, staked_total, returned_total FROM session WHERE id = 1)
     WHERE seq = (SELECT MAX(seq) FROM records)`,
    `CREATE TABLE IF NOT EXISTS shared_transfers (
       id TEXT PRIMARY KEY,
       table_id TEXT NOT NULL,
       round INTEGER NOT NULL,
       kind TEXT NOT NULL,
       amount INTEGER NOT NULL,
       applied INTEGER NOT NULL,
       balance_after INTEGER NOT NULL,
       at TEXT NOT NULL
     )`,
    `CREATE TABLE shared_transfers_v6 (
       id TEXT PRIMARY KEY,
       n INTEGER NOT NULL,
       table_id TEXT NOT NULL,
       round INTEGER NOT NULL,
       kind TEXT NOT NULL,
       amount INTEGER NOT NULL,
       applied INTEGER NOT NULL,
       balance_after INTEGER NOT NULL,
       at TEXT NOT NULL
     ) WITHOUT ROWID`,
    `INSERT INTO shared_transfers_v6 SELECT id, rowid, table_id, round, kind, amount, applied, balance_after, at FROM shared_transfers`,
    `DROP TABLE shared_transfers`,
    `ALTER TABLE shared_transfers_v6 RENAME TO shared_transfers`,
    `CREATE TABLE tokens_v6 (hash TEXT PRIMARY KEY, issued_at TEXT NOT NULL) WITHOUT ROWID`,
    `INSERT INTO tokens_v6 SELECT hash, issued_at FROM tokens`,
    `DROP TABLE tokens`,
    `ALTER TABLE tokens_v6 RENAME TO tokens`,
  ],
  // 6 → 7: wallet mode (see above).
  [
    `CREATE TABLE IF NOT EXISTS wallet_session (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       operator TEXT NOT NULL,
       player_id TEXT NOT NULL,
       currency TEXT NOT NULL,
       lang TEXT NOT NULL,
       return_url TEXT NOT NULL,
       player_limits TEXT NOT NULL,
       table_limits TEXT NOT NULL,
       opening_balance INTEGER NOT NULL CHECK (opening_balance >= 0),
       started_at TEXT NOT NULL,
       last_reality_check_at TEXT NOT NULL,
       reality_check_pending INTEGER NOT NULL DEFAULT 0,
       ended_code TEXT,
       ended_at TEXT
     )`,
    `CREATE TABLE IF NOT EXISTS wallet_calls (
       txn TEXT PRIMARY KEY,
       kind TEXT NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
       shoe INTEGER NOT NULL,
       round INTEGER NOT NULL,
       attempt INTEGER NOT NULL,
       round_id TEXT NOT NULL,
       amount INTEGER NOT NULL CHECK (amount >= 0),
       debit_txn TEXT,
       state TEXT NOT NULL CHECK (state IN ('sending', 'acknowledged', 'refused', 'unknown', 'pending', 'stuck')),
       attempts INTEGER NOT NULL DEFAULT 0,
       next_try_at INTEGER,
       code TEXT,
       balance INTEGER,
       answered_n INTEGER,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL
     ) WITHOUT ROWID`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version of this database: 0 when it has no tables yet. Reads only. */
export function schemaVersion(sql: SqlStorage): number {
  const hasMeta = sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).toArray().length > 0;
  if (!hasMeta) return 0;
  const row = sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`).toArray()[0];
  return row ? Number(row.value) : 0;
}

/**
 * Brings the database to `SCHEMA_VERSION`. Call it inside `transactionSync`. Throws when the
 * stored version is newer than this code knows (a rollback of the code must not touch the data).
 */
export function migrate(sql: SqlStorage, migrations: readonly Migration[] = MIGRATIONS): number {
  const from = schemaVersion(sql);
  if (from > migrations.length) throw new Error(`schema version ${from} is newer than this code (${migrations.length})`);
  for (let v = from; v < migrations.length; v++) {
    for (const statement of migrations[v]!) sql.exec(statement);
    sql.exec(`INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, String(v + 1));
  }
  return migrations.length;
}
