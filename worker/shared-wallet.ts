/**
 * The session's side of the money protocol with shared tables (issue 13, API.md "Shared tables:
 * money"). A player's balance stays in their own session object (`Table`); a shared table
 * (`SharedTable`) moves it only through `applyTransfer`, one transfer at a time, each named by an
 * id the table derives from (table, round, player, purpose). There is no transaction spanning the
 * two objects, so each side keeps its half:
 *
 * - here, the transfer id is written in the SAME transaction as the balance change, with its
 *   outcome (applied, or refused for lack of funds): a transfer id seen again gets the stored
 *   outcome and changes nothing. Retrying is always safe;
 * - the table writes the transfer as pending before asking, and as settled when it has the answer
 *   (shared-table.ts); until then it asks again on its next alarm.
 *
 * Pure SQL over the session's storage: no clock, no I/O; the caller runs it inside its own
 * serialization so that no private round computes a balance while a transfer changes it.
 */

/** One movement of a player's money asked by a shared table. */
export interface Transfer {
  /** The table's id for this movement (hex): the same movement always carries the same id. */
  id: string;
  /** The shared table (e.g. "hall-1/a"), its round, and why. */
  table: string;
  round: number;
  kind: 'debit' | 'credit' | 'refund';
  /** Minor units, > 0: taken from the balance for a debit, added for a credit or refund. */
  amount: number;
}

export type TransferOutcome =
  | { ok: true; id: string; balance: number; replayed: boolean }
  | {
      ok: false;
      id: string;
      code: 'insufficient_funds' | 'no_session' | 'bad_transfer' | 'session_busy';
      message: string;
      balance?: number;
      replayed?: boolean;
    };

/** Answers that record nothing on the session's side: the table keeps the transfer pending and asks again. */
export const RETRY_LATER: ReadonlySet<string> = new Set(['session_busy']);

const SCHEMA = `CREATE TABLE IF NOT EXISTS shared_transfers (
  id TEXT PRIMARY KEY,
  table_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  kind TEXT NOT NULL,
  amount INTEGER NOT NULL,
  applied INTEGER NOT NULL,
  balance_after INTEGER NOT NULL,
  at TEXT NOT NULL
)`;

const ID = /^[0-9a-f]{16,64}$/;

function valid(t: Transfer): string | null {
  if (typeof t !== 'object' || t === null || !ID.test(t.id)) return 'a transfer id is 16–64 lowercase hex characters';
  if (!['debit', 'credit', 'refund'].includes(t.kind)) return 'a transfer is a debit, a credit or a refund';
  if (!Number.isSafeInteger(t.amount) || t.amount <= 0) return 'a transfer amount is a positive integer of minor units';
  if (!Number.isSafeInteger(t.round) || t.round < 1 || typeof t.table !== 'string') return 'a transfer names its table and round';
  return null;
}

/**
 * Applies `t` to the session's balance exactly once (inside `transactionSync`): a known id answers
 * its stored outcome; a debit larger than the balance is refused and that refusal is stored too,
 * so a retry can never turn it into a debit later.
 */
export function applyTransfer(storage: DurableObjectStorage, t: Transfer, nowIso: string): TransferOutcome {
  const bad = valid(t);
  if (bad) return { ok: false, id: String(t?.id), code: 'bad_transfer', message: bad };
  return storage.transactionSync((): TransferOutcome => {
    const sql = storage.sql;
    sql.exec(SCHEMA);
    const seen = sql.exec('SELECT applied, balance_after FROM shared_transfers WHERE id = ?', t.id).toArray()[0];
    if (seen) {
      const balance = Number(seen.balance_after);
      return seen.applied ? { ok: true, id: t.id, balance, replayed: true } : refusal(t, balance, true);
    }
    const row = sql.exec('SELECT balance FROM session WHERE id = 1').toArray()[0];
    if (!row) return { ok: false, id: t.id, code: 'no_session', message: 'no such session' };
    const before = Number(row.balance);
    const delta = t.kind === 'debit' ? -t.amount : t.amount;
    const applied = before + delta >= 0;
    const after = applied ? before + delta : before;
    if (applied) sql.exec('UPDATE session SET balance = ? WHERE id = 1', after);
    sql.exec('INSERT INTO shared_transfers VALUES (?, ?, ?, ?, ?, ?, ?, ?)', t.id, t.table, t.round, t.kind, t.amount, applied ? 1 : 0, after, nowIso);
    return applied ? { ok: true, id: t.id, balance: after, replayed: false } : refusal(t, after, false);
  });
}

function refusal(t: Transfer, balance: number, replayed: boolean): TransferOutcome {
  return { ok: false, id: t.id, code: 'insufficient_funds', message: `the balance (${balance}) does not cover a stake of ${t.amount}`, balance, replayed };
}

/** Every transfer a session took part in, oldest first (the player's side of the books, for audits and tests). */
export function listTransfers(storage: DurableObjectStorage): Array<Transfer & { applied: boolean; balanceAfter: number }> {
  storage.sql.exec(SCHEMA);
  return storage.sql
    .exec('SELECT * FROM shared_transfers ORDER BY rowid')
    .toArray()
    .map((r) => ({
      id: String(r.id),
      table: String(r.table_id),
      round: Number(r.round),
      kind: String(r.kind) as Transfer['kind'],
      amount: Number(r.amount),
      applied: Number(r.applied) === 1,
      balanceAfter: Number(r.balance_after),
    }));
}
