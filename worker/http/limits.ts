/**
 * Rate limits: token buckets. The time is passed in (milliseconds), so the buckets are pure and the
 * tests drive them; only the shell reads the clock.
 *
 * - per table session: one bucket in the session's Durable Object (every request on the table);
 * - per client address: buckets in this isolate's memory (every API request) and in the client's
 *   Durable Object (session creation). The in-memory one is a cheap first line: production traffic
 *   spreads over many isolates, so pair it with a Cloudflare rate-limiting rule (API.md).
 */
import type { RateSpec } from '../config/env.ts';

export class TokenBucket {
  #tokens: number;
  #at: number;
  readonly spec: RateSpec;

  constructor(spec: RateSpec, nowMs: number) {
    this.spec = spec;
    this.#tokens = spec.burst;
    this.#at = nowMs;
  }

  /** Takes `cost` tokens if there are enough; otherwise returns the seconds until there will be. */
  take(nowMs: number, cost = 1): { ok: true } | { ok: false; retryAfter: number } {
    const elapsed = Math.max(0, nowMs - this.#at) / 1000;
    this.#tokens = Math.min(this.spec.burst, this.#tokens + elapsed * this.spec.perSecond);
    this.#at = Math.max(this.#at, nowMs);
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return { ok: true };
    }
    return { ok: false, retryAfter: (cost - this.#tokens) / this.spec.perSecond };
  }

  /**
   * Empties the bucket and keeps it empty for `forSeconds` (tests use it to reach the limit
   * without sending hundreds of requests).
   */
  drain(nowMs: number, forSeconds = 0): void {
    this.#tokens = -forSeconds * this.spec.perSecond;
    this.#at = nowMs;
  }
}

/** Buckets by key with a bounded memory: the least recently used key is forgotten first. */
export class KeyedBuckets {
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #max: number;

  constructor(maxKeys = 10_000) {
    this.#max = maxKeys;
  }

  take(key: string, spec: RateSpec, nowMs: number, cost = 1): { ok: true } | { ok: false; retryAfter: number } {
    let bucket = this.#buckets.get(key);
    if (bucket && (bucket.spec.burst !== spec.burst || bucket.spec.perSecond !== spec.perSecond)) bucket = undefined;
    if (bucket) this.#buckets.delete(key);
    else bucket = new TokenBucket(spec, nowMs);
    this.#buckets.set(key, bucket); // re-insert: Map order is recency order
    if (this.#buckets.size > this.#max) this.#buckets.delete(this.#buckets.keys().next().value!);
    return bucket.take(nowMs, cost);
  }
}

/**
 * The rate-limit key of a client address: IPv4 as is; IPv6 by its /64 prefix, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::', 2);
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
