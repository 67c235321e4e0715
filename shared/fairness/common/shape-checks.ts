/**
 * The structural checks every protocol version's shapes are built from: each returns a message
 * naming the path when the value does not fit, or null. Values are judged later by the verifiers.
 */

export type ShapeCheck = (value: unknown, path: string) => string | null;

const str: ShapeCheck = (v, p) => (typeof v === 'string' ? null : `${p} must be a string`);
const bool: ShapeCheck = (v, p) => (typeof v === 'boolean' ? null : `${p} must be true or false`);
const nullable =
  (check: ShapeCheck): ShapeCheck =>
  (v, p) =>
    v === null ? null : check(v, p);
const arr =
  (check: ShapeCheck): ShapeCheck =>
  (v, p) => {
    if (!Array.isArray(v)) return `${p} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const e = check(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  };

/** The members that say what a round decided, with the given checks of integers (totals). */
export const roundFactChecks = (
  whole: ShapeCheck,
): Record<'playerTotal' | 'bankerTotal' | 'outcome' | 'natural' | 'playerPair' | 'bankerPair', ShapeCheck> => ({
  playerTotal: whole,
  bankerTotal: whole,
  outcome: str,
  natural: bool,
  playerPair: bool,
  bankerPair: bool,
});

/** The checks whose messages every protocol version shares (pb-fair-2 and pb-shared-1 build on them). */
export const BASE_CHECKS = { str, bool, nullable, arr };
