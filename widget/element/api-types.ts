/**
 * The Worker's answers as the widget reads them (API.md). Signed records come from the fairness
 * module; only their types are imported, so none of its code lands in the loader.
 */
import type { CommitmentBody, ReceiptBody, RevealBody, Signed, StartBody } from '../../shared/fairness/index.ts';
import type { RoomId, TableLimits } from '../../shared/table.ts';

export type { ReceiptBody, Signed };

export type ShoeStatus = 'awaiting-start' | 'in-play' | 'ended';

/** A shoe as the session and round answers describe it. */
export interface ShoeState {
  number: number;
  status: ShoeStatus;
  rounds: number;
  cutRange?: { min: number; max: number };
  /** What decides the cards (also inside the commitment). */
  params?: { decks: number };
  commitment?: Signed<CommitmentBody>;
  start?: Signed<StartBody>;
}

/** `POST /api/sessions` → 201. */
export interface SessionAnswer {
  sessionId: string;
  token: string;
  balance: number;
  room: RoomId;
  limits: TableLimits;
  shoe: ShoeState;
}

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface ShoeStartAnswer {
  shoe: ShoeState;
}

/** `POST /api/sessions/:id/rounds` → 200. */
export interface RoundAnswer {
  receipt: Signed<ReceiptBody>;
  balance: number;
  shoe: Pick<ShoeState, 'number' | 'status' | 'rounds'>;
  reveal?: Signed<RevealBody>;
  nextShoe?: ShoeState;
}

/** What the player (or, by default, chance) chooses to start a committed shoe: the client seed and the cut. */
export interface ShoeStartChoice {
  clientSeed: string;
  cut: number;
}
