/**
 * How a shared table's session and the element meet (shared-table-session.ts): what it reads of
 * the element, what the element lends it, and what the shared table's HUD draws (shared-table-view.ts).
 */
import type { ProofCheckView, StartCheckView } from './shared-table-proof.ts';
import type { Bet } from '../../shared/table.ts';
import type { OutcomeFacts } from '../../shared/fairness/pb-shared-1/outcomes.ts';
import type { SharedCommitment, SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { SharedStartRecord } from '../../shared/wire/shared-table-socket.ts';
import type { TableScene } from '../scene/types.ts';
import type { BetState } from '../element/bet-state.ts';
import type { SocketFactory } from '../element/host-types.ts';
import type { ApiClient, ApiError } from './api-client.ts';
import type { SettledRound } from '../round-view.ts';
import type { SessionHost } from './table-link.ts';
import type { TableSession } from './table-session.ts';

/** The element as this controller reads it. */
export interface SharedTableHost extends SessionHost {
  readonly table: string | null;
  socketFactory: SocketFactory | null;
}

/** What the element lends the controller. */
export interface SharedTableLink {
  /** The player's own session (opened, resumed and retried as at a private table). */
  session: TableSession;
  api: ApiClient;
  bets: BetState;
  scene(): TableScene | null;
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  /** The table's state arrived: its limits (the seat's stakes) are the table's from now on, and the scene's texts and chips follow. */
  limitsChanged(): void;
  /** A failed request in the player's words (the element's errorText: wallet and limit codes included). */
  explain(error: ApiError): string;
  /** A refused bet, shown like the private table's refusals. */
  refuse(code: string, reason?: string): void;
  announce(text: string): void;
  /** The player's round was dealt, drawn and settled (its body, and the signed settlement). */
  played(body: SettledRound, settlement: SignedShared<SharedSettlement>): void;
  /** A round dealt without the player's stake: its result. */
  watched(body: SettledRound): void;
}

export type SharedTablePhase = 'connecting' | 'idle' | 'betting' | 'awaiting-beacon';

/** One accepted bet at the table, as the state and the `bet` messages list them. */
export interface TableBet {
  player: string;
  stake: number;
  bets?: Bet[];
}

/** What the HUD draws (render in shared-table-view.ts). */
export interface SharedTableView {
  tableId: string;
  phase: SharedTablePhase;
  connections: number;
  round: number;
  shoe: number;
  /** Milliseconds left in the betting window (0 when closed), and the window's length. */
  left: number;
  windowMs: number;
  beaconRound: number | null;
  /** Each box's total by everyone, `sector:box` → minor units. */
  boxTotals: Map<string, number>;
  bettors: number;
  tableTotal: number;
  /** The player's own bet this round: sent (waiting for the ack) or accepted. */
  mine: { stake: number; status: 'sending' | 'accepted' } | null;
  /** Chips may go on the felt now (the clock invites to bet only then). */
  canBet: boolean;
  /** The previous round is still being drawn on the felt. */
  drawing: boolean;
  outcomes: OutcomeFacts[];
  commitment: SignedShared<SharedCommitment> | null;
  start: SharedStartRecord | null;
  transcriptUrl: string;
  verifyUrl: string;
  /** The check of this player's bet against the latest pb-shared-2 close it bet in (FAIRNESS.md §D6), or null. */
  proof: ProofCheckView | null;
  /** Where the check of this player's seed and cut in the shoe's pb-shared-2 start stands, or null (none). */
  startProof: StartCheckView['state'] | null;
}
