/**
 * What the parts of a table session share (session/table.ts builds it once per instance): the
 * store, the settings, the table's clock, and the one way to write (a transaction whose rows are
 * counted by the kind of change, for `stats()`).
 */
import type { Env } from '../config/env.ts';
import type { WalletTerms } from '../wallet/wallet-session.ts';
import type { TableStore } from './store.ts';

/** The kinds of writes `stats()` counts rows for. */
export type ChangeKind =
  | 'create'
  | 'start'
  | 'bet'
  | 'secret'
  | 'secret-ending-shoe'
  | 'end'
  | 'void'
  | 'idle-reveal'
  | 'transfer'
  | 'transfer-refused'
  // wallet mode (worker/wallet): a debit written before it is sent, its refusal or unknown outcome, the outbox's answers, the limits' state
  | 'wallet-debit'
  | 'wallet-refused'
  | 'wallet-outbox'
  | 'wallet-limits';

/** Rows written since the instance started (indexes included, as billed), in all and per kind of change. */
export interface TableStats {
  rowsWritten: number;
  /** Rows read by the table's queries (reads and changes alike), indexes included. */
  rowsRead: number;
  changes: Partial<Record<ChangeKind, { count: number; rowsWritten: number }>>;
  /** The alarm: times armed (`setAlarm`, billed as a row written each) and run (a Durable Object request each). */
  alarm: { set: number; runs: number };
  /** Totals sent to the ledger (an RPC each: a Durable Object request); `failed`: not delivered. */
  ledger: { pushes: number; failed: number };
}

export interface SessionParts {
  readonly store: TableStore;
  readonly env: Env;
  /** The table's clock (ms): tests move it past a deadline instead of waiting. */
  now(): number;
  /** Whether the session was created (once true, true for good). */
  exists(): boolean;
  /** Runs `write` in one transaction and counts the rows it wrote under `kind`. */
  counted(kind: ChangeKind, write: () => void): void;
  /** Wallet mode: the room's limits in minor units and the wallet every commitment names; null in play mode. */
  walletTerms(): WalletTerms | null;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
