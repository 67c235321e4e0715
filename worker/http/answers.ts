/**
 * What the Durable Objects hand back to the fetch handler: a status and a JSON body, plain data so
 * it crosses RPC and can be stored as an idempotent answer. Every error body has the one shape
 * `{ error: { code, message } }` (API.md "Errors").
 */
import type { ApiErrorBody, ApiErrorCode, ApiErrorDetail } from '../../shared/api.ts';

export interface Answer<T = unknown> {
  status: number;
  body: T | ApiErrorBody;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

export function answer<T>(status: number, body: T, headers?: Record<string, string>): Answer<T> {
  return headers ? { status, body, headers } : { status, body };
}

/** An error answer; `detail` adds fields such as the offending bet's sector and box. */
export function failure(status: number, code: ApiErrorCode, message: string, detail?: ApiErrorDetail): Answer<never> {
  return { status, body: { error: { code, message, ...detail } } };
}

export function rateLimited(retryAfterSeconds: number, what: string): Answer<never> {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return { ...failure(429, 'rate_limited', `too many requests ${what}: retry in ${seconds} s`), headers: { 'Retry-After': String(seconds) } };
}

export function isSuccess(a: Answer): boolean {
  return a.status >= 200 && a.status < 300;
}
