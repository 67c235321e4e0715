/**
 * pb-fair-2 committed parameters (FAIRNESS.md §B3). Every member decides something: in reshuffle
 * mode there is no burn and no cut card, so `burn` and `cutCardFromEnd` are not committed there;
 * `roundLimit` (reshuffle only) is when the shoe is revealed; `voidAfterSeconds` is how long an
 * accepted round waits for the player's secret before it is voided.
 */
import { CARDS_PER_DECK, MAX_DECKS, MIN_DECKS } from '../../cards.ts';
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { MAX_CARDS_PER_ROUND } from '../../round.ts';
import { MAX_BURN } from '../../shoe.ts';
import type { CommissionRule } from '../../settle.ts';
import type { TableLimits } from '../../table.ts';
import { validateLimits } from '../../table.ts';

export interface ShoeModeParams {
  algorithm: 'pb-fair-2';
  mode: 'shoe';
  decks: number;
  burn: boolean;
  cutCardFromEnd: number;
  voidAfterSeconds: number;
}

export interface ReshuffleParams {
  algorithm: 'pb-fair-2';
  mode: 'reshuffle';
  decks: number;
  /** The shoe is revealed after this many accepted rounds. */
  roundLimit: number;
  voidAfterSeconds: number;
}

export type ShoeParams = ShoeModeParams | ReshuffleParams;

export const VOID_AFTER_MAX = 86_400;
export const ROUND_LIMIT_MAX = 1_000;
/** The limit the Worker uses (API.md: a reshuffle shoe is revealed every 100 rounds). */
export const DEFAULT_ROUND_LIMIT = 100;
export const DEFAULT_VOID_AFTER_SECONDS = 600;

const int = (n: unknown, lo: number, hi: number): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= lo && n <= hi;

/** The committed parameters' values (their members and types are checked by the shape). */
export function validateParams(p: ShoeParams): Result<ShoeParams, EngineError<'bad_params'>> {
  if (p.algorithm !== 'pb-fair-2') return fail('bad_params', `the algorithm must be "pb-fair-2", got ${JSON.stringify(p.algorithm)}`);
  if (!int(p.decks, MIN_DECKS, MAX_DECKS)) return fail('bad_params', `decks must be ${MIN_DECKS} to ${MAX_DECKS}, got ${String(p.decks)}`);
  if (!int(p.voidAfterSeconds, 1, VOID_AFTER_MAX))
    return fail('bad_params', `voidAfterSeconds must be 1 to ${VOID_AFTER_MAX}, got ${String(p.voidAfterSeconds)}`);
  if (p.mode === 'shoe') {
    const hi = p.decks * CARDS_PER_DECK - MAX_BURN - MAX_CARDS_PER_ROUND;
    if (!int(p.cutCardFromEnd, MAX_CARDS_PER_ROUND, hi))
      return fail('bad_params', `cutCardFromEnd must be ${MAX_CARDS_PER_ROUND} to ${hi} for ${p.decks} deck(s), got ${String(p.cutCardFromEnd)}`);
    return ok(p);
  }
  if (p.mode === 'reshuffle') {
    if (!int(p.roundLimit, 1, ROUND_LIMIT_MAX)) return fail('bad_params', `roundLimit must be 1 to ${ROUND_LIMIT_MAX}, got ${String(p.roundLimit)}`);
    return ok(p);
  }
  return fail('bad_params', `mode must be "shoe" or "reshuffle", got ${JSON.stringify((p as { mode: unknown }).mode)}`);
}

/**
 * Limits as pb-fair-2 closes them: positive integers, step a multiple of 20 (play money, `exact`;
 * a wallet shoe, `round-down`, takes any step: §B15), min ≤ max, min, max and every chip multiples
 * of step, chips strictly ascending within [min, max].
 */
export function validateCommittedLimits(l: TableLimits, rule: CommissionRule = 'exact'): Result<TableLimits, EngineError<'bad_params'>> {
  const base = validateLimits(l, rule);
  if (!base.ok) return fail('bad_params', base.error.message);
  for (let i = 0; i < l.chips.length; i++) {
    const c = l.chips[i]!;
    if (c < l.min || c > l.max) return fail('bad_params', `chip ${c} is outside the limits ${l.min}–${l.max}`);
    if (i > 0 && c <= l.chips[i - 1]!) return fail('bad_params', 'chips must be strictly ascending');
  }
  return ok(l);
}
