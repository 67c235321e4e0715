/**
 * Who may call a table session: the bearer token's holder (by the token's SHA-256), from a browser
 * origin allowed for the session's affiliate (http/cors.ts: refused with 403 `origin_not_allowed`
 * after the token check, so only the token's holder learns the affiliate), within the session's
 * rate limit.
 */
import type { Env } from '../config/env.ts';
import { type Answer, failure, rateLimited } from '../http/answers.ts';
import { isOriginAllowedFor, originRefusal } from '../http/cors.ts';
import type { TokenBucket } from '../http/limits.ts';
import { matchesAny } from '../http/tokens.ts';
import type { SessionRow } from './store.ts';

/** Who is calling: the SHA-256 of the bearer token, and the browser origin (null: none, or the Worker's own). */
export interface Auth {
  tokenHash: string;
  origin: string | null;
}

export type Entered = { ok: true; session: SessionRow } | { ok: false; answer: Answer<never> };

/** The table's side of the check: whether the session exists, its token hashes, its row (read only once the token matched). */
export interface Door {
  exists(): boolean;
  tokenHashes(): string[];
  session(): SessionRow;
}

/** Session exists, token matches, the origin may embed this affiliate's table, rate limit allows: in that order. */
export function enter(auth: Auth, door: Door, bucket: TokenBucket, env: Env): Entered {
  if (!door.exists()) return { ok: false, answer: failure(404, 'not_found', 'no such session') };
  if (!matchesAny(auth.tokenHash, door.tokenHashes())) {
    return { ok: false, answer: failure(401, 'unauthorized', 'the bearer token is not valid for this session') };
  }
  const session = door.session();
  if (!isOriginAllowedFor(auth.origin, session.affiliate, env)) return { ok: false, answer: originRefusal(auth.origin!, session.affiliate) };
  const taken = bucket.take(Date.now());
  if (!taken.ok) return { ok: false, answer: rateLimited(taken.retryAfter, 'on this table session') };
  return { ok: true, session };
}
