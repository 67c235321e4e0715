/**
 * How a private table's session and the element meet: what the session reads of the element (the
 * page's attributes, its shoe-start hook) and what the element lends it and wants to hear
 * (table-session.ts). A shared table's session reads the same host (shared-table-session.ts).
 */
import type { ReactiveControllerHost } from 'lit';
import type { RoomId } from '../../shared/table.ts';
import type { WalletSessionView } from '../../shared/api.ts';
import type { ShoeMode } from '../../shared/shoe.ts';
import type { TableScene } from '../scene/types.ts';
import type { BetState } from '../element/bet-state.ts';
import type { ApiClient, ApiError, FetchLike } from './api-client.ts';
import type { PlayedRound, ShoeState } from './api-types.ts';
import type { SettledRound } from '../round-view.ts';
import type { ShoeStartProvider } from './shoe-start.ts';

/** The element as the session reads it: the attributes the page set, and its shoe-start hook. */
export interface SessionHost extends ReactiveControllerHost, HTMLElement {
  readonly endpoint: string;
  readonly room: RoomId;
  readonly affiliate: string | null;
  /** `shoe` or `reshuffle`: the table mode a new session is created in. */
  readonly mode: ShoeMode;
  readonly resume: string;
  /** A casino's launch token (`launch-token`): the session is redeemed from it, in wallet mode. Null: a play session. */
  readonly launchToken: string | null;
  /** The casino the launch token must belong to (`operator`), or null. */
  readonly operator: string | null;
  readonly shoeStartProvider: ShoeStartProvider | null;
}

/** What the element lends the session, and what it wants to hear. */
export interface SessionLink {
  readonly api: ApiClient;
  readonly bets: BetState;
  fetcher(): FetchLike;
  scene(): TableScene | null;
  /** The seed and cut of a shoe when the page set no provider (the fairness panel's). */
  defaultProvider: ShoeStartProvider;
  /** An API error in the table's language. */
  explain(error: ApiError): string;
  /** The words on a reshuffle table's shoe ("Fresh shoe every round"). */
  freshShoeText(): string;
  hideToast(): void;
  /** The session is open (new, or resumed with the rounds of its current shoe). */
  opened(rounds: SettledRound[]): void;
  /** The shoe in play was started. */
  shoeStarted(shoe: ShoeState): void;
  /** A round was dealt, drawn and settled (the bets already kept or swept). */
  played(answer: PlayedRound): void;
  /** Wallet mode: the session's wallet view arrived (null: a play session); the table's money is now in its currency. */
  walletChanged?(wallet: WalletSessionView | null): void;
}
