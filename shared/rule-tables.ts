/**
 * Lookup tables for the hot loops (exact odds, simulation), built once at module load BY CALLING
 * round.ts's `isNatural`, `playerDraws`, `bankerDraws` and `outcomeOf` on every input. Nothing here
 * states a rule: change the rule in round.ts and these tables follow.
 */
import { bankerDraws, isNatural, OUTCOMES, outcomeOf, playerDraws } from './round.ts';

const TOTALS = 10;

/** NATURAL[twoCardTotal] is 1 when that total is a natural. */
export const NATURAL: Uint8Array = Uint8Array.from({ length: TOTALS }, (_, t) => (isNatural(t) ? 1 : 0));

/** PLAYER_DRAWS[twoCardTotal] is 1 when the Player (not on a natural round) draws. */
export const PLAYER_DRAWS: Uint8Array = Uint8Array.from({ length: TOTALS }, (_, t) => (playerDraws(t) ? 1 : 0));

/** Columns of `BANKER_DRAWS` per Banker total: column 0 is "the Player stood", column 1 + p the Player's third card of p points. */
export const BANKER_COLUMNS = 11;

/** BANKER_DRAWS[bankerTotal * BANKER_COLUMNS + column] is 1 when the Banker draws. */
export const BANKER_DRAWS: Uint8Array = Uint8Array.from({ length: TOTALS * BANKER_COLUMNS }, (_, i) => {
  const total = Math.floor(i / BANKER_COLUMNS);
  const column = i % BANKER_COLUMNS;
  return bankerDraws(total, column === 0 ? null : column - 1) ? 1 : 0;
});

/** OUTCOME[playerTotal * 10 + bankerTotal] is the outcome's index into `OUTCOMES`. */
export const OUTCOME: Uint8Array = Uint8Array.from({ length: TOTALS * TOTALS }, (_, i) => OUTCOMES.indexOf(outcomeOf(Math.floor(i / TOTALS), i % TOTALS)));
