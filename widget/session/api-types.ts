/**
 * The Worker's answers as the widget reads them: the pb-fair-2 wire contract of shared/api.ts,
 * loosened where the element asks less (a shoe it only knows the number, status and rounds of).
 * Types only, so none of the shared code lands in the loader.
 */
import type { AcceptanceAnswer, RoundAnswer, SessionView, ShoeSummary, ShoeView, Fair1StartShoeRequest } from '../../shared/api.ts';
import type { ShoeParams } from '../../shared/fairness/pb-fair-2/params.ts';
import type { Receipt, Signed } from '../../shared/fairness/pb-fair-2/records.ts';
import type { SettledRound } from '../round-view.ts';

export type { Signed, Receipt, AcceptanceAnswer };
export type { Acceptance, Commitment, FairnessFile, Reveal, Start } from '../../shared/fairness/pb-fair-2/records.ts';
export type { ShoeStatus } from '../../shared/api.ts';

/** A shoe as the session and round answers describe it. */
export type ShoeState = ShoeSummary &
  Partial<Pick<ShoeView, 'cutRange' | 'commitment' | 'start' | 'reveal'>> & {
    /** What decides the cards (also inside the commitment). */
    params?: Pick<ShoeParams, 'decks'> & Partial<{ mode: ShoeParams['mode']; cutCardFromEnd: number }>;
  };

/** `GET /api/sessions/:id` → 200 (pb-fair-2). */
export type ReadSessionView = Pick<
  SessionView,
  'protocol' | 'sessionId' | 'room' | 'balance' | 'limits' | 'playerKey' | 'head' | 'pending' | 'lastReceipt' | 'wallet'
> & {
  shoe: ShoeState;
};

/** `POST /api/sessions` → 201. */
export type SessionAnswer = ReadSessionView & { token: string };

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface ShoeStartAnswer {
  shoe: ShoeState;
}

/** `POST /api/sessions/:id/rounds/:round/secret` → 200. */
export type ReadRoundAnswer = Omit<RoundAnswer, 'nextShoe'> & { nextShoe?: ShoeState };

/**
 * A round the element plays: the Worker's answer, and the round as the felt, the history and the
 * scoreboard draw it — the receipt's result with the bets of its acceptance (round-view.ts).
 */
export interface PlayedRound extends ReadRoundAnswer {
  round: SettledRound;
}

/** What the player (or, by default, chance) chooses to start a committed shoe: the client seed and the cut. */
export type ShoeStartChoice = Fair1StartShoeRequest;
