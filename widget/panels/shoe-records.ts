/**
 * The signed records the element received for each shoe of the session, as the drawer keeps them:
 * the commitment, the start, the rounds as drawn (round-view.ts) and the reveal.
 */
import type { Commitment, Reveal, ShoeState, Signed, Start } from '../session/api-types.ts';
import type { SettledRound } from '../round-view.ts';
import type { ScoreboardResult } from './scoreboard.ts';

/** Ended shoes kept verifiable in the fairness tab. */
export const PAST_SHOES = 12;

/** The signed records the element received for one shoe of the session, and its rounds as drawn. */
export interface ShoeRecords {
  number: number;
  commitment: Signed<Commitment> | null;
  start: Signed<Start> | null;
  /** The shoe's rounds as the history draws them (round-view.ts). */
  rounds: SettledRound[];
  reveal: Signed<Reveal> | null;
  /** Derived, rebuilt when a round arrives (stable between, so the panels keep their state). */
  results: ScoreboardResult[];
}

export function recordsOf(shoe: ShoeState): ShoeRecords {
  return rebuild({ number: shoe.number, commitment: shoe.commitment ?? null, start: shoe.start ?? null, rounds: [], reveal: null, results: [] });
}

/** Recomputes the scoreboard results after a change of rounds. */
export function rebuild(s: ShoeRecords): ShoeRecords {
  s.results = s.rounds.map((r) => ({ outcome: r.outcome, playerPair: r.playerPair, bankerPair: r.bankerPair, natural: r.natural }));
  return s;
}
