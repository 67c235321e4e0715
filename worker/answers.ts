/**
 * What the Durable Objects hand back to the fetch handler: a status and a JSON body, plain data so
 * it crosses RPC and can be stored as an idempotent answer. Every error body has the one shape
 * `{ error: { code, message } }` (API.md "Errors").
 */
import type { BetErrorCode } from '../shared/table.ts';

export type ErrorCode =
  | 'bad_json'
  | 'invalid_body'
  | 'bad_query'
  | 'bad_client_seed'
  | 'bad_cut'
  | 'idempotency_key_required'
  | 'unauthorized'
  | 'forbidden'
  | 'origin_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_conflict'
  | 'shoe_not_started'
  | 'shoe_already_started'
  | 'body_too_large'
  | 'body_aborted'
  | 'bad_affiliate_token'
  | 'affiliate_token_expired'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  // the engine's bet rules, passed through unchanged
  | BetErrorCode;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; [detail: string]: unknown };
}

export interface Answer<T = unknown> {
  status: number;
  body: T | ErrorBody;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

export function answer<T>(status: number, body: T, headers?: Record<string, string>): Answer<T> {
  return headers ? { status, body, headers } : { status, body };
}

/** Extra fields of an error: the offending bet's sector and box; the refused origin and its affiliate. */
export interface ErrorDetail {
  sector?: number;
  box?: string;
  origin?: string;
  affiliate?: string | null;
}

/** An error answer; `detail` adds fields such as the offending bet's sector and box. */
export function failure(status: number, code: ErrorCode, message: string, detail?: ErrorDetail): Answer<never> {
  return { status, body: { error: { code, message, ...detail } } };
}

export function rateLimited(retryAfterSeconds: number, what: string): Answer<never> {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return { ...failure(429, 'rate_limited', `too many requests ${what}: retry in ${seconds} s`), headers: { 'Retry-After': String(seconds) } };
}

export function isSuccess(a: Answer): boolean {
  return a.status >= 200 && a.status < 300;
}
