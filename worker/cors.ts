/**
 * Which browser origins may call the API. A request without an `Origin` header (the CLI, curl,
 * server to server) is not a cross-origin browser call and passes; one whose origin is not allowed
 * is refused with 403 `origin_not_allowed` before it reaches any table.
 *
 * Allowed: the Worker's own origin (the demo page it serves), every origin in `ALLOWED_ORIGINS`,
 * and, when `DEV` is "true", http(s)://localhost and http(s)://127.0.0.1 on any port.
 */
import { type Env, isDev } from './env.ts';

const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** The headers a browser may send and read. */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
export const CORS_EXPOSE_HEADERS = 'Retry-After, Idempotent-Replayed';
export const CORS_ALLOW_METHODS = 'GET, POST, OPTIONS';
export const CORS_MAX_AGE = '600';

function normalize(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

export function allowedOrigins(env: Env): Set<string> {
  return new Set(
    (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map(normalize)
      .filter((o) => o.length > 0),
  );
}

export function isOriginAllowed(origin: string, env: Env, requestUrl: string): boolean {
  const o = normalize(origin);
  if (o === normalize(new URL(requestUrl).origin)) return true;
  if (allowedOrigins(env).has(o)) return true;
  return isDev(env) && LOOPBACK.test(o);
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
