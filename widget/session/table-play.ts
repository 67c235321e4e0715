/**
 * The one interface the element plays a table through, whichever kind of session holds it: the
 * private table (table-session.ts: the player's own shoe over HTTP) or the shared table
 * (shared-table-session.ts: one shoe, many players, over a WebSocket). The element reads the
 * table's state and sends the player's actions here, never to a kind directly.
 */
import type { TableLimits } from '../../shared/table.ts';
import type { Bet } from '../../shared/table.ts';
import type { ApiResult } from './api-client.ts';
import type { ShoeState } from './api-types.ts';
import type { SettledRound } from '../round-view.ts';
import type { ShoeEndAnswer } from '../panels/drawer-link.ts';
import type { PlayerCopy } from './player.ts';
import type { TableState } from '../element/host-types.ts';
import type { BetProblem } from '../element/bets.ts';

export type { TableState };

/** What failed, in the table's words, and how to try again (null: nothing to retry). */
export interface Notice {
  code: string;
  message: string;
  retry: (() => Promise<void>) | null;
}

/** Why the bets on the felt cannot be dealt (nothing was sent). */
export type DealRefusal = BetProblem | { code: 'empty_bet'; message: string };

export interface TablePlay {
  /** Where the table is in its life (pb-ready once `start` has opened it). */
  readonly state: TableState;
  /** The failure on screen and its Retry, or null. */
  readonly notice: Notice | null;
  readonly balance: number;
  readonly limits: TableLimits | null;
  readonly sessionId: string | null;
  /** The player's public key the records name, or null before the session opens. */
  readonly playerKey: string | null;
  /** The player's own copy of the records (a private table's; null at a shared table). */
  readonly copy: PlayerCopy | null;
  /** The private table's shoe as the Worker last described it (null at a shared table: its shoe is the table's). */
  readonly shoe: ShoeState | null;
  /** The settled round the felt shows (until swept): a rebuilt scene draws it again. */
  readonly onFelt: SettledRound | null;
  /** Whether the bets may change (and a deal start) now. */
  readonly canBet: boolean;

  /** The table (re)boots: nothing to bet on or retry until `start` has opened it. */
  begin(): void;
  /** Opens the table once `scene` is up; a failure shows with `retry`. */
  start(scene: Promise<unknown>, retry: () => Promise<void>): Promise<void>;
  /** Drops the table's session (the attributes changed) before another opens. */
  forget(): void;
  /** Draws how much of the shoe is left. */
  showShoe(): void;
  /** "Cut and start": the player starts the committed shoe (false when it cannot now). */
  startShoe(): Promise<boolean>;
  /** Ends the shoe in play early (null when it cannot now, or at a shared table). */
  endShoe(key: string): Promise<ApiResult<ShoeEndAnswer> | null>;
  /** The player changed the chips: a settled round leaves the felt, an error notice goes. */
  betsTouched(): void;
  /** Checks the chips for a deal; why they cannot go, else null (`runDeal` sends them). */
  prepareDeal(bets: readonly Bet[]): DealRefusal | null;
  /** Deals (private) or places the round's bet (shared) with the chips `prepareDeal` checked. */
  runDeal(): Promise<void>;
  /** Retries whatever failed. */
  retry(): Promise<void>;
  /** The language changed: the notice on screen is said again in the new one. */
  resay(): void;
}
