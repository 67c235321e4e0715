/**
 * Affiliate attribution: how sure the operator can be that a session really came through the
 * affiliate its creation names. The body's `affiliate` is only a claim (any script can write
 * it), so every session records one of three levels, from strongest to weakest:
 *
 * - `signed`: the creation carried an `Affiliate-Token` minted by the affiliate's own server with
 *   the key the operator issued to it (`AFFILIATE_KEYS`), for this affiliate and this creation's
 *   Idempotency-Key, not expired. Only the affiliate (and the operator) can mint one.
 * - `origin`: a browser created it from an origin `EMBED_ORIGINS` lists for that affiliate by
 *   name (for a session without affiliate: under `"*"`). Origins allowed only through `"*"` or the
 *   dev loopback rule prove nothing about the affiliate. A browser cannot forge its `Origin`; a
 *   script outside a browser can, so this is evidence, not proof.
 * - `claimed`: anything else (no `Origin`, the Worker's own pages, a server without a token).
 *
 * The token: `v1.<exp>.<mac>`, where `exp` is a Unix time in seconds and `mac` the base64url
 * HMAC-SHA256, under the affiliate's key, of `punto-banco-affiliate-v1\n<affiliate>\n<exp>\n<Idempotency-Key>`.
 * Bound to one Idempotency-Key (the creation and its replays) and to at most
 * `MAX_AFFILIATE_TOKEN_LIFETIME_S` ahead, a token that leaks opens one creation for minutes.
 *
 * `now` comes in from the shell (seconds); this module reads no clock.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Attribution } from '../../shared/api.ts';
import { type Answer, failure } from '../http/answers.ts';
import { isOriginListedFor } from '../http/cors.ts';
import type { Env } from '../config/env.ts';
import { AFFILIATE_ID } from '../http/bodies.ts';
import { base64url, constantTimeEqual } from '../http/tokens.ts';

export type { Attribution };

export const ATTRIBUTIONS: readonly Attribution[] = ['signed', 'origin', 'claimed'];

/** The request header that carries the signed attribution. */
export const AFFILIATE_TOKEN_HEADER = 'Affiliate-Token';

/** A token may expire at most this far ahead: affiliates mint one per creation, just before it. */
export const MAX_AFFILIATE_TOKEN_LIFETIME_S = 15 * 60;

/** An affiliate key shorter than this is ignored (logged): it could be guessed. */
export const MIN_AFFILIATE_KEY_LENGTH = 32;

const TOKEN = /^v1\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/** What the MAC covers; the affiliate's server builds the same text (DEPLOY.md). */
export function affiliateTokenMessage(affiliate: string, exp: number, idempotencyKey: string): string {
  return `punto-banco-affiliate-v1\n${affiliate}\n${exp}\n${idempotencyKey}`;
}

/** Mints a token (what the affiliate's server does; here for the tests and the docs' reference). */
export function mintAffiliateToken(key: string, affiliate: string, exp: number, idempotencyKey: string): string {
  const mac = hmac(sha256, utf8ToBytes(key), utf8ToBytes(affiliateTokenMessage(affiliate, exp, idempotencyKey)));
  return `v1.${exp}.${base64url(mac)}`;
}

let cached: { source: string; keys: Map<string, string> } | null = null;

/** `AFFILIATE_KEYS` (secret JSON: affiliate id → key), parsed once per isolate; bad entries are logged and skipped. */
export function affiliateKeys(env: Env): Map<string, string> {
  const source = env.AFFILIATE_KEYS ?? '';
  if (cached?.source === source) return cached.keys;
  const keys = new Map<string, string>();
  const problem = (p: string) => console.error(`punto-banco: AFFILIATE_KEYS: ${p}`);
  if (source.trim() !== '') {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(source);
    } catch (err) {
      problem(`not JSON (${(err as Error).message}): no signed attribution is accepted`);
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [id, key] of Object.entries(parsed as Record<string, unknown>)) {
        const affiliate = id.toLowerCase();
        if (!AFFILIATE_ID.test(affiliate)) problem(`"${id}" is not an affiliate id: skipped`);
        else if (typeof key !== 'string' || key.length < MIN_AFFILIATE_KEY_LENGTH)
          problem(`the key of "${id}" is not a string of ${MIN_AFFILIATE_KEY_LENGTH}+ characters: skipped`);
        else keys.set(affiliate, key);
      }
    } else if (parsed !== null) {
      problem('must be a JSON object { "affiliate": "key" }: no signed attribution is accepted');
    }
  }
  cached = { source, keys };
  return keys;
}

export interface CreationClaim {
  affiliate: string | null;
  /** The browser origin (null: none, or the Worker's own). */
  origin: string | null;
  /** The `Affiliate-Token` header, if sent. */
  token: string | null;
  idempotencyKey: string;
  /** Unix time, seconds. */
  now: number;
}

/**
 * The attribution of a session creation, or the refusal of a bad token. A token that is sent
 * must be good: a bad one is refused rather than quietly downgraded, so its minter hears of it.
 */
export function attribute(claim: CreationClaim, env: Env): { ok: true; attribution: Attribution } | { ok: false; answer: Answer<never> } {
  if (claim.token !== null) {
    const refused = checkToken(claim, env);
    return refused ? { ok: false, answer: refused } : { ok: true, attribution: 'signed' };
  }
  const listed = claim.origin !== null && isOriginListedFor(claim.origin, claim.affiliate, env);
  return { ok: true, attribution: listed ? 'origin' : 'claimed' };
}

function checkToken(claim: CreationClaim, env: Env): Answer<never> | null {
  const bad = (status: number, message: string) => failure(status, 'bad_affiliate_token', message);
  const { affiliate, token } = claim;
  if (affiliate === null) return bad(400, `${AFFILIATE_TOKEN_HEADER} attributes a session to an affiliate: name the affiliate in the body`);
  const m = TOKEN.exec(token!.trim());
  if (!m) return bad(400, `${AFFILIATE_TOKEN_HEADER} must be "v1.<expiry in Unix seconds>.<base64url HMAC-SHA256>" (DEPLOY.md "Signed attribution")`);
  const key = affiliateKeys(env).get(affiliate);
  const exp = Number(m[1]);
  // Without a key, compare against a throwaway one so the answer takes the same time.
  const expected = mintAffiliateToken(key ?? 'no key issued to this affiliate, never matches', affiliate, exp, claim.idempotencyKey);
  const genuine = constantTimeEqual(expected, `v1.${m[1]}.${m[2]}`) && key !== undefined;
  if (!genuine) return bad(403, `the ${AFFILIATE_TOKEN_HEADER} is not valid for affiliate "${affiliate}" and this Idempotency-Key`);
  if (exp <= claim.now) return failure(403, 'affiliate_token_expired', `the ${AFFILIATE_TOKEN_HEADER} expired: mint a new one for this creation`);
  if (exp > claim.now + MAX_AFFILIATE_TOKEN_LIFETIME_S) {
    return bad(403, `the ${AFFILIATE_TOKEN_HEADER} expires too far ahead: at most ${MAX_AFFILIATE_TOKEN_LIFETIME_S} seconds after it is minted`);
  }
  return null;
}
