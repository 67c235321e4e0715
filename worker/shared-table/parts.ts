/**
 * What the parts of a shared table share (shared-table.ts builds it once per instance): its
 * object's state and settings, its store, the table's state (one row, saved with every step), the
 * clock, the alarm, the beacon, and the two ways to speak to the players (through the relays).
 */
import type { SharedParams, SharedShoeState } from '../../shared/fairness/pb-shared-1/index.ts';
import type { ServerMessage, SharedTablePhase } from '../../shared/wire/shared-table-socket.ts';
import type { BeaconSource, Fetcher } from '../beacon/beacon.ts';
import { type Env, isDev } from '../config/env.ts';
import type { TableConfig } from './settings.ts';
import type { SharedStore } from './store.ts';

export interface ShoeState {
  number: number;
  params: SharedParams;
  serverSeed: string;
  /** Set by the start record, at the shoe's first close. */
  clientSeed: string | null;
  cut: number | null;
  deal: SharedShoeState | null;
  /** Rounds closed in this shoe (dealt or voided): the open round is closed + 1. */
  closed: number;
}

export interface TableState {
  config: TableConfig;
  phase: SharedTablePhase;
  closesAt: number | null;
  beaconRound: number | null;
  shoe: ShoeState;
}

/** What tests set on a table's live instance (never in production). */
export interface SharedTableHooks {
  /** A late or failing beacon relay. */
  beaconFetch: Fetcher | undefined;
  /** Seats of this table (MAX_SEATS; tests fill a smaller table). */
  seatCap: number;
  /** How long a seat goes without a bet before it is idle; null: IDLE_ROUNDS betting windows (tests set 0). */
  idleMs: number | null;
  /** How long a transfer call to a session is waited for (TRANSFER_TIMEOUT_MS; tests shorten it). */
  transferTimeoutMs: number;
  /** Transfer calls waited for at once (TRANSFER_CONCURRENCY; tests narrow it). */
  transferConcurrency: number;
}

export interface SharedTableParts {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  readonly store: SharedStore;
  readonly hooks: SharedTableHooks;
  /** The table's state (the table exists before any part runs). */
  state(): TableState;
  /** Stores the state (inside the step's transaction) and keeps it. */
  save(state: TableState): void;
  now(): number;
  /** Sets the alarm the state needs, or none. */
  schedule(): Promise<void>;
  beaconSource(): Promise<BeaconSource>;
  /** To every player at the table (through its relays, relays.ts). */
  fanOut(m: ServerMessage): void;
  /** To every socket of one session. */
  toPlayer(session: string, m: ServerMessage): void;
  /** Sockets at the table, over every relay. */
  connections(): number;
}

/**
 * The steps of a round the crash tests stop at (`SHARED_TEST_HALT`; never set in production): a
 * session applied a transfer the table has not recorded yet (`<kind>-applied`); the close, the deal
 * or the void is stored and nothing of it sent or paid yet; `revealed`: the same for a deal or a void
 * that also ended the shoe (its reveal and the next shoe's commitment stored with it).
 */
export type HaltStep = 'debit-applied' | 'closed' | 'dealt' | 'voided' | 'revealed' | 'credit-applied' | 'refund-applied';

/**
 * Tests only: with `SHARED_TEST_HALT` naming this step, the loop logs that it got there and never
 * goes on (the test kills the server at that point). Unset, nothing happens.
 */
export async function haltIfAsked(env: Env, step: HaltStep): Promise<void> {
  // Honoured only in development (DEV=true): a stray setting can never stall a production table.
  if (env.SHARED_TEST_HALT !== step || !isDev(env)) return;
  console.log(`punto-banco: SHARED_TEST_HALT: halted at ${step}`);
  await new Promise(() => {});
}
