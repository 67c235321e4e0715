/**
 * What the parts of a private table's session share (table-session.ts builds it once): the
 * element and its link, the shoe meter, the open session and its records, the balance, and the
 * table's state with its notice. The parts are the shoe's start and end (shoe-changes.ts) and
 * the round in two phases (round-phases.ts); the session opens, draws and fails for them.
 */
import type { TableLimits } from '../../shared/table.ts';
import type { ApiError } from './api-client.ts';
import type { ReadSessionView, Signed } from './api-types.ts';
import type { PlayerCopy } from './player.ts';
import type { OpenSession } from './session-open.ts';
import type { SessionStore } from './session-store.ts';
import type { ShoeMeter } from './shoe-meter.ts';
import type { SessionHost, SessionLink } from './table-link.ts';
import type { Notice, TableState } from './table-play.ts';

export interface PrivateParts {
  readonly host: SessionHost;
  readonly link: SessionLink;
  /** The shoe, and what the felt's gauge shows of it. */
  readonly meter: ShoeMeter;
  readonly state: TableState;
  /** Whether the bets may change (and a deal or a shoe change start) now. */
  readonly canBet: boolean;
  /** The table's newest record: the next bet or end request follows it. */
  head: Signed | null;
  balance: number;
  readonly limits: TableLimits | null;
  /** The open session, or null. */
  live(): OpenSession | null;
  /** The player's own copy of the records (open or expired session). */
  copy(): PlayerCopy | null;
  /** Where this tab keeps the session for a reload (null: `resume="off"`, or not opened yet). */
  store(): SessionStore | null;
  set(state: TableState, notice?: Notice | null): void;
  fail(error: ApiError, retry: (() => Promise<void>) | null): void;
  /** A change failed: the session decides (a retired or expired session, a shoe not started) and shows it with Retry. */
  roundFailed(error: ApiError): void;
  /** Asks the Worker where the session stands. */
  refresh(): Promise<ReadSessionView | null>;
}
