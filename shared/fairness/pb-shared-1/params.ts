/**
 * pb-shared-1 committed parameters (FAIRNESS.md §C3): pb-fair-2's two modes, with the beacon
 * deadline in place of the player's void timeout (there is no player secret to wait for).
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { validateParams, type ShoeParams } from '../pb-fair-2/params.ts';

/** The shared-table versions: pb-shared-1 (part III) and pb-shared-2 (part IV: its close commits to a Merkle root of the bets). Their params differ only in this name. */
export type SharedAlgorithm = 'pb-shared-1' | 'pb-shared-2';

export interface SharedShoeModeParams {
  algorithm: SharedAlgorithm;
  mode: 'shoe';
  decks: number;
  burn: boolean;
  cutCardFromEnd: number;
  /** A round whose beacon is not published this many seconds after its due time is voided. */
  beaconDeadlineSeconds: number;
}

export interface SharedReshuffleParams {
  algorithm: SharedAlgorithm;
  mode: 'reshuffle';
  decks: number;
  /** The shoe is revealed after this many closed rounds. */
  roundLimit: number;
  beaconDeadlineSeconds: number;
}

export type SharedParams = SharedShoeModeParams | SharedReshuffleParams;

export const BEACON_DEADLINE_MAX = 3_600;
/** What the Worker commits: a quicknet round is normally out 3 s after it is due. */
export const DEFAULT_BEACON_DEADLINE_SECONDS = 60;

/** The exact member set of each mode's params. */
export const SHARED_PARAM_MEMBERS = {
  shoe: ['algorithm', 'beaconDeadlineSeconds', 'burn', 'cutCardFromEnd', 'decks', 'mode'],
  reshuffle: ['algorithm', 'beaconDeadlineSeconds', 'decks', 'mode', 'roundLimit'],
} as const;

/** The same dealing parameters in pb-fair-2's form, for its derivation functions (they read mode, decks, burn, cutCardFromEnd). */
export function asShoeParams(p: SharedParams): ShoeParams {
  return p.mode === 'shoe'
    ? { algorithm: 'pb-fair-2', mode: 'shoe', decks: p.decks, burn: p.burn, cutCardFromEnd: p.cutCardFromEnd, voidAfterSeconds: 1 }
    : { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: p.decks, roundLimit: p.roundLimit, voidAfterSeconds: 1 };
}

/** Exactly the members of the mode, each value in range (pb-fair-2's ranges; beaconDeadlineSeconds 1–3600), naming `algorithm`. */
export function validateSharedParams(value: unknown, algorithm: SharedAlgorithm = 'pb-shared-1'): Result<SharedParams, EngineError<'bad_params'>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('bad_params', 'params must be an object');
  const p = value as Record<string, unknown>;
  const members = p.mode === 'reshuffle' ? SHARED_PARAM_MEMBERS.reshuffle : SHARED_PARAM_MEMBERS.shoe;
  const have = Object.keys(p).sort();
  if (have.join() !== members.join())
    return fail('bad_params', `the params of mode ${JSON.stringify(p.mode)} are exactly ${members.join(', ')}; got ${have.join(', ')}`);
  if (p.mode !== 'shoe' && p.mode !== 'reshuffle') return fail('bad_params', `mode must be "shoe" or "reshuffle", got ${JSON.stringify(p.mode)}`);
  if (p.algorithm !== algorithm) return fail('bad_params', `the algorithm must be "${algorithm}", got ${JSON.stringify(p.algorithm)}`);
  if (p.mode === 'shoe' && typeof p.burn !== 'boolean') return fail('bad_params', 'burn must be true or false');
  const d = p.beaconDeadlineSeconds;
  if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 1 || d > BEACON_DEADLINE_MAX) {
    return fail('bad_params', `beaconDeadlineSeconds must be 1 to ${BEACON_DEADLINE_MAX}, got ${String(d)}`);
  }
  const v2 = validateParams(asShoeParams(p as unknown as SharedParams));
  if (!v2.ok) return fail('bad_params', v2.error.message.replace('pb-fair-2', algorithm));
  return ok(p as unknown as SharedParams);
}
