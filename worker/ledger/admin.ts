/**
 * The operator's access to the report: `Authorization: Bearer <ADMIN_TOKEN>`.
 *
 * `ADMIN_TOKEN` is a secret (`wrangler secret put ADMIN_TOKEN`; locally `.dev.vars`). There is no
 * default: without it, or with one shorter than `MIN_ADMIN_TOKEN_LENGTH`, the report is off. The
 * comparison hashes both sides with SHA-256 and compares the digests in constant time, so neither
 * the token's length nor its prefix shows in the timing.
 */
import type { Env } from '../config/env.ts';
import { bearer, constantTimeEqual, tokenHash } from '../http/tokens.ts';

/** A shorter ADMIN_TOKEN is refused (the report stays off): it could be guessed. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

export type AdminAccess = 'granted' | 'denied' | 'disabled';

let warned = false;

/** Whether an `Authorization` header value opens the operator's report. */
export function adminAccess(env: Env, authorization: string | null | undefined): AdminAccess {
  const configured = env.ADMIN_TOKEN?.trim() ?? '';
  if (configured.length < MIN_ADMIN_TOKEN_LENGTH) {
    if (configured.length > 0 && !warned) {
      warned = true;
      console.error(`punto-banco: ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters, so the operator report stays off`);
    }
    return 'disabled';
  }
  const presented = bearer(authorization);
  if (presented === null) return 'denied';
  return constantTimeEqual(tokenHash(presented), tokenHash(configured)) ? 'granted' : 'denied';
}
