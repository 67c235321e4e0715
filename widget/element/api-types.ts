/**
 * The Worker's answers as the widget reads them: the wire contract of shared/api.ts, loosened
 * where the element asks less (a shoe it only knows the number, status and rounds of). Types
 * only, so none of the shared code lands in the loader.
 */
import type { CreatedSession, RoundAnswer as WireRoundAnswer, ShoeSummary, ShoeView, StartShoeRequest } from '../../shared/api.ts';
import type { ShoeParams } from '../../shared/fairness/params.ts';

export type { ReceiptBody, Signed } from '../../shared/fairness/records.ts';
export type { ShoeStatus } from '../../shared/api.ts';

/** A shoe as the session and round answers describe it. */
export type ShoeState = ShoeSummary &
  Partial<Pick<ShoeView, 'cutRange' | 'commitment' | 'start'>> & {
    /** What decides the cards (also inside the commitment). */
    params?: Pick<ShoeParams, 'decks'> & Partial<Pick<ShoeParams, 'cutCardFromEnd' | 'mode'>>;
  };

/** `POST /api/sessions` → 201. */
export type SessionAnswer = Pick<CreatedSession, 'sessionId' | 'token' | 'balance' | 'room' | 'limits'> & { shoe: ShoeState };

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface ShoeStartAnswer {
  shoe: ShoeState;
}

/** `POST /api/sessions/:id/rounds` → 200. */
export type RoundAnswer = Omit<WireRoundAnswer, 'nextShoe'> & { nextShoe?: ShoeState };

/** What the player (or, by default, chance) chooses to start a committed shoe: the client seed and the cut. */
export type ShoeStartChoice = StartShoeRequest;
