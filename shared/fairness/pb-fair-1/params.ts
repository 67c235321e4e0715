/**
 * What decides the cards besides the seeds and the cut: the engine's shoe rules plus the algorithm
 * version. All of it is committed, signed, before the player's seed or any bet is accepted.
 */
import { CARDS_PER_DECK } from '../../cards.ts';
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { DEFAULT_SHOE_RULES, type ShoeErrorCode, type ShoeRules, validateShoeRules, validateCut } from '../../shoe.ts';

/** The version of everything in FAIRNESS.md: derivation, commitment, record encoding. */
export const FAIR1_VERSION = 'pb-fair-1';
export type Fair1Version = typeof FAIR1_VERSION;

/** What decides the cards besides seeds and cut: the engine's ShoeRules plus the algorithm version. */
export interface Fair1ShoeParams extends ShoeRules {
  algorithm: Fair1Version;
}

export const FAIR1_DEFAULT_SHOE_PARAMS: Readonly<Fair1ShoeParams> = { ...DEFAULT_SHOE_RULES, algorithm: FAIR1_VERSION };

export type Fair1ShoeParamsErrorCode = ShoeErrorCode | 'bad_algorithm';

/** The engine's shoe-rule checks plus a known algorithm version. */
export function validateFair1ShoeParams(params: Fair1ShoeParams): Result<Fair1ShoeParams, EngineError<Fair1ShoeParamsErrorCode>> {
  if (params.algorithm !== FAIR1_VERSION) {
    return fail('bad_algorithm', `the algorithm must be "${FAIR1_VERSION}", got ${JSON.stringify(params.algorithm)}`);
  }
  const rules = validateShoeRules(params);
  return rules.ok ? ok(params) : rules;
}

/** Cards in a stack of these params: 52 × decks. */
export function stackSize(params: ShoeRules): number {
  return params.decks * CARDS_PER_DECK;
}

/**
 * The cut indices the player may choose: the top `cut` cards go under the rest, so 1 … size−1
 * (the engine's `validateCut`); any of them is as good as any other for fairness.
 */
export function cutRange(params: ShoeRules): { min: number; max: number } {
  return { min: 1, max: stackSize(params) - 1 };
}

/** The player's cut checked against `cutRange`. */
export function validateShoeCut(params: ShoeRules, cut: number): Result<number, EngineError<ShoeErrorCode>> {
  return validateCut(cut, stackSize(params));
}
