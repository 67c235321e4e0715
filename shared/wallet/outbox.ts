/**
 * When to try an owed credit or rollback again (WALLET.md "Retries"). Exponential backoff with a
 * cap and "equal jitter": the n-th retry waits between half and all of min(cap, base × factor^(n−1)).
 * Pure: the jitter is an input in [0, 1), drawn by the caller (1 − ε gives the longest wait, 0 the
 * shortest); there is no last attempt, since an owed payment is retried until the wallet has it.
 */

export interface RetryPolicy {
  /** The first retry's full delay. */
  baseMs: number;
  /** Growth per attempt, ≥ 1. */
  factor: number;
  /** The longest full delay. */
  capMs: number;
}

/** 1 s, 2 s, 4 s, … up to 5 minutes. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1_000, factor: 2, capMs: 300_000 };

/** The full (un-jittered) delay before retry number `attempt` (1 = the first retry). */
export function retryCeilingMs(attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number ≥ 1, got ${attempt}`);
  // Stop multiplying once past the cap: no Infinity, no overflow for a row retried for weeks.
  let delay = policy.baseMs;
  for (let i = 1; i < attempt && delay < policy.capMs; i++) delay *= policy.factor;
  return Math.min(policy.capMs, Math.round(delay));
}

/** The delay before retry `attempt`, in [ceiling/2, ceiling): `jitter` in [0, 1) picks where. */
export function retryDelayMs(attempt: number, jitter: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  if (!(jitter >= 0 && jitter < 1)) throw new RangeError(`jitter must be in [0, 1), got ${jitter}`);
  const ceiling = retryCeilingMs(attempt, policy);
  return Math.floor(ceiling / 2 + (jitter * ceiling) / 2);
}

/** When retry `attempt` is due, counted from the failed try that ended at `failedAt` (Unix ms). */
export function nextRetryAt(failedAt: number, attempt: number, jitter: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  return failedAt + retryDelayMs(attempt, jitter, policy);
}
