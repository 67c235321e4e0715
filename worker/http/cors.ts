/**
 * Which browser origins may call the API, per affiliate, and the CORS headers they get.
 *
 * A request without an `Origin` header (the CLI, curl, server to server) is not a cross-origin
 * browser call and passes; so does one from the Worker's own origin (the demo page it serves). Any
 * other origin must be allowed for the session's affiliate:
 *
 * - `EMBED_ORIGINS` (wrangler.toml `[vars]`) is JSON: affiliate id → origins, where `"*"` lists
 *   the origins allowed for every session (with or without an affiliate: the operator's own sites):
 *   `{ "*": ["https://casino.example"], "acme": ["https://acme.example", "https://*.acme.example"] }`.
 *   An origin is `scheme://host[:port]`; `https://*.acme.example` allows every subdomain (not the
 *   apex). Affiliate `acme` may embed on its own origins and on the `"*"` ones.
 * - `ALLOWED_ORIGINS` (older, comma-separated) is added to `"*"`.
 * - With `DEV = "true"`, http(s)://localhost, 127.0.0.1 and [::1] on any port, for everyone.
 *
 * A malformed `EMBED_ORIGINS` is logged and treated as empty: it fails closed (only same-origin,
 * non-browser and, in dev, loopback calls pass), never open.
 *
 * Where it is checked: a preflight needs an origin allowed for SOME affiliate (a preflight carries
 * neither body nor token, so the session is unknown); session creation checks the body's
 * affiliate; every later call is checked by the table against its stored affiliate (`Auth.origin`).
 * A refusal is 403 `origin_not_allowed` and carries no CORS allowance.
 */
import { type Answer, failure } from './answers.ts';
import { type Env, isDev } from '../config/env.ts';
import { AFFILIATE_ID } from './bodies.ts';

const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** `scheme://host[:port]`, host a DNS name, IPv4 or bracketed IPv6; `*.` before the host only in a pattern. */
const ORIGIN_PATTERN = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/;
const HOST_LABELS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/** The key of `EMBED_ORIGINS` whose origins every session may be embedded on. */
export const EVERY_AFFILIATE = '*';

/** The headers a browser may send and read. */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Affiliate-Token';
export const CORS_EXPOSE_HEADERS = 'Retry-After, Idempotent-Replayed';
export const CORS_ALLOW_METHODS = 'GET, POST, OPTIONS';
export const CORS_MAX_AGE = '600';

/** Origins as matchers: exact strings, and `*.` patterns as a prefix and a suffix around the subdomain. */
export interface OriginList {
  exact: Set<string>;
  wildcard: Array<{ prefix: string; suffix: string }>;
}

/** The parsed embedding configuration. */
export interface EmbedPolicy {
  /** `"*"` plus `ALLOWED_ORIGINS`: allowed for every session. */
  everyone: OriginList;
  /** Per affiliate id (lower case). */
  byAffiliate: Map<string, OriginList>;
  /** What was wrong with the configuration (logged once per isolate). */
  problems: string[];
}

/**
 * An origin in its one comparable form: lower case, no trailing slash, no default port
 * (`https://a.example:443` is `https://a.example`).
 */
export function normalizeOrigin(origin: string): string {
  const o = origin.trim().replace(/\/+$/, '').toLowerCase();
  return o.replace(/^(https:\/\/.+):443$/, '$1').replace(/^(http:\/\/.+):80$/, '$1');
}

function emptyList(): OriginList {
  return { exact: new Set(), wildcard: [] };
}

/** Adds one configured origin (or `*.` pattern) to `list`; returns a problem when it is not one. */
function addOrigin(list: OriginList, raw: unknown, where: string): string | null {
  if (typeof raw !== 'string') return `${where}: ${JSON.stringify(raw)} is not a string`;
  const o = normalizeOrigin(raw);
  const m = ORIGIN_PATTERN.exec(o);
  if (!m) return `${where}: "${raw}" is not an origin (scheme://host[:port], no path)`;
  if (m[2]) {
    const star = o.indexOf('*.');
    list.wildcard.push({ prefix: o.slice(0, star), suffix: o.slice(star + 1) });
  } else {
    list.exact.add(o);
  }
  return null;
}

/** Parses `EMBED_ORIGINS` and `ALLOWED_ORIGINS`; bad entries are skipped and reported in `problems`. */
export function parseEmbedPolicy(embedOrigins: string | undefined, allowedOrigins: string | undefined): EmbedPolicy {
  const policy: EmbedPolicy = { everyone: emptyList(), byAffiliate: new Map(), problems: [] };
  const note = (p: string | null) => p && policy.problems.push(p);
  for (const o of (allowedOrigins ?? '').split(',')) if (o.trim() !== '') note(addOrigin(policy.everyone, o, 'ALLOWED_ORIGINS'));
  const raw = embedOrigins?.trim() ?? '';
  if (raw === '') return policy;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    note(`EMBED_ORIGINS is not JSON (${(err as Error).message}): no embedding origin is allowed`);
    return policy;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    note('EMBED_ORIGINS must be a JSON object { "affiliate": ["https://origin", …] }: no embedding origin is allowed');
    return policy;
  }
  for (const [key, origins] of Object.entries(parsed as Record<string, unknown>)) {
    const affiliate = key.toLowerCase();
    if (affiliate !== EVERY_AFFILIATE && !AFFILIATE_ID.test(affiliate)) {
      note(`EMBED_ORIGINS: "${key}" is not an affiliate id (nor "*"): skipped`);
      continue;
    }
    if (!Array.isArray(origins)) {
      note(`EMBED_ORIGINS["${key}"] must be an array of origins: skipped`);
      continue;
    }
    let list = policy.everyone;
    if (affiliate !== EVERY_AFFILIATE) {
      list = policy.byAffiliate.get(affiliate) ?? emptyList();
      policy.byAffiliate.set(affiliate, list);
    }
    for (const o of origins) note(addOrigin(list, o, `EMBED_ORIGINS["${key}"]`));
  }
  return policy;
}

let cached: { source: string; policy: EmbedPolicy } | null = null;

/** The policy of this environment, parsed once per isolate per configuration. */
export function embedPolicy(env: Env): EmbedPolicy {
  const source = `${env.EMBED_ORIGINS ?? ''}\n${env.ALLOWED_ORIGINS ?? ''}`;
  if (cached?.source !== source) {
    const policy = parseEmbedPolicy(env.EMBED_ORIGINS, env.ALLOWED_ORIGINS);
    for (const p of policy.problems) console.error(`punto-banco: ${p}`);
    cached = { source, policy };
  }
  return cached.policy;
}

function listHas(list: OriginList, origin: string): boolean {
  if (list.exact.has(origin)) return true;
  return list.wildcard.some(({ prefix, suffix }) => {
    if (!origin.startsWith(prefix) || !origin.endsWith(suffix) || origin.length <= prefix.length + suffix.length) return false;
    return HOST_LABELS.test(origin.slice(prefix.length, origin.length - suffix.length));
  });
}

/** Whether `origin` is the Worker's own (the page it serves calls the API same-origin). */
export function isSameOrigin(origin: string, requestUrl: string): boolean {
  return normalizeOrigin(origin) === normalizeOrigin(new URL(requestUrl).origin);
}

/**
 * Whether a browser on `origin` may use a session of `affiliate` (null: none). `origin` null means
 * no cross-origin browser is involved (no `Origin` header, or the Worker's own origin).
 */
export function isOriginAllowedFor(origin: string | null, affiliate: string | null, env: Env): boolean {
  if (origin === null) return true;
  const o = normalizeOrigin(origin);
  if (isDev(env) && LOOPBACK.test(o)) return true;
  const policy = embedPolicy(env);
  if (listHas(policy.everyone, o)) return true;
  const own = affiliate === null ? undefined : policy.byAffiliate.get(affiliate);
  return own !== undefined && listHas(own, o);
}

/**
 * Whether `origin` is listed for `affiliate` by name (null: under `"*"`), not merely allowed
 * through `"*"` or the dev loopback rule: the evidence of an `origin` attribution (embed/attribution.ts).
 */
export function isOriginListedFor(origin: string, affiliate: string | null, env: Env): boolean {
  const policy = embedPolicy(env);
  const list = affiliate === null ? policy.everyone : policy.byAffiliate.get(affiliate);
  return list !== undefined && listHas(list, normalizeOrigin(origin));
}

/** Whether `origin` may embed SOME session (what a preflight, which names no session, can check). */
export function isKnownOrigin(origin: string, env: Env): boolean {
  if (isOriginAllowedFor(origin, null, env)) return true;
  const o = normalizeOrigin(origin);
  for (const list of embedPolicy(env).byAffiliate.values()) if (listHas(list, o)) return true;
  return false;
}

/** The refusal of an embedding origin, naming the origin and the affiliate so the site owner knows whom to ask. */
export function originRefusal(origin: string, affiliate: string | null): Answer<never> {
  const shown = origin.length > 200 ? `${origin.slice(0, 200)}…` : origin;
  const where = shown === 'null' ? 'a page without an origin (a sandboxed frame or a local file)' : shown;
  const ask = affiliate === null ? 'ask the operator to allow it.' : `ask the operator to allow it for affiliate "${affiliate}".`;
  return failure(403, 'origin_not_allowed', `This table may not be embedded on ${where}: ${ask}`, { origin: shown, affiliate });
}

/** CORS response headers for an allowed origin. */
export function corsHeaders(origin: string, preflight: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
    Vary: 'Origin',
  };
  if (preflight) {
    headers['Access-Control-Allow-Methods'] = CORS_ALLOW_METHODS;
    headers['Access-Control-Allow-Headers'] = CORS_ALLOW_HEADERS;
    headers['Access-Control-Max-Age'] = CORS_MAX_AGE;
  }
  return headers;
}
