/**
 * The Worker's answers as the widget reads them: the pb-fair-2 wire contract of shared/api.ts,
 * loosened where the element asks less (a shoe it only knows the number, status and rounds of).
 * Types only, so none of the shared code lands in the loader.
 */
import type { AcceptanceAnswer, RoundAnswerV2, SessionViewV2, ShoeSummary, ShoeViewV2, StartShoeRequest } from '../../shared/api.ts';
import type { ShoeParamsV2 } from '../../shared/fairness/v2/params.ts';
import type { ReceiptV2, SignedV2 } from '../../shared/fairness/v2/records.ts';
import type { SettledRound } from '../round-view.ts';

export type { SignedV2, ReceiptV2, AcceptanceAnswer };
export type { AcceptanceV2, CommitmentV2, FileV2, RevealV2, StartV2 } from '../../shared/fairness/v2/records.ts';
export type { ShoeStatus } from '../../shared/api.ts';

/** A shoe as the session and round answers describe it. */
export type ShoeState = ShoeSummary &
  Partial<Pick<ShoeViewV2, 'cutRange' | 'commitment' | 'start' | 'reveal'>> & {
    /** What decides the cards (also inside the commitment). */
    params?: Pick<ShoeParamsV2, 'decks'> & Partial<{ mode: ShoeParamsV2['mode']; cutCardFromEnd: number }>;
  };

/** `GET /api/sessions/:id` → 200 (pb-fair-2). */
export type SessionView = Pick<SessionViewV2, 'protocol' | 'sessionId' | 'room' | 'balance' | 'limits' | 'playerKey' | 'head' | 'pending' | 'lastReceipt'> & {
  shoe: ShoeState;
};

/** `POST /api/sessions` → 201. */
export type SessionAnswer = SessionView & { token: string };

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface ShoeStartAnswer {
  shoe: ShoeState;
}

/** `POST /api/sessions/:id/rounds/:round/secret` → 200. */
export type RoundAnswer = Omit<RoundAnswerV2, 'nextShoe'> & { nextShoe?: ShoeState };

/**
 * A round the element plays: the Worker's answer, and the round as the felt, the history and the
 * scoreboard draw it — the receipt's result with the bets of its acceptance (round-view.ts).
 */
export interface PlayedRound extends RoundAnswer {
  round: SettledRound;
}

/** What the player (or, by default, chance) chooses to start a committed shoe: the client seed and the cut. */
export type ShoeStartChoice = StartShoeRequest;
