/**
 * The typed client of the Worker's HTTP API (API.md; the contract's types are in `../api.ts`).
 * Every API path is written once, in `http-calls.ts`: one function per endpoint builds its
 * `ApiCall` (method, path, body, the idempotency key the caller passes in); `sendApiCall` here
 * sends any call through an injected `fetch`-like function and reads the answer into a value or
 * an error value. Retries
 * are the caller's (the widget retries with the same key, the CLI waits out a rate limit): a call
 * is plain data, so sending the same call again resends the same key and the same body.
 * Pure apart from the injected fetch; no DOM, no Node.
 */
import type { ApiErrorCode, ApiErrorDetail } from '../api.ts';

/** The subset of `fetch` the client needs: the platform's, Miniflare's dispatchFetch, a test's fake. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * One request of the API, as data (built by `http-calls.ts`). `T` is what a success answers (the type only: `answer` is
 * never set). A state-changing call carries its idempotency key; a retry sends the same call.
 */
export interface ApiCall<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  readonly answer?: T;
}

/**
 * What the client itself concludes: the request was aborted, the Worker could not be reached;
 * `wrong_endpoint` when what answered is not a table server (a page, a 404, JSON that is not the
 * API's: the endpoint is missing or wrong); `http_<status>` for a server error without a code.
 */
export type WireErrorCode = 'aborted' | 'unreachable' | 'wrong_endpoint' | `http_${number}`;

/** A failed call. `status` is 0 when no answer came. */
export interface WireError {
  code: ApiErrorCode | WireErrorCode;
  message: string;
  status: number;
  /** Worth sending again unchanged: no answer, a rate limit, a server failure. */
  retryable: boolean;
  /** 429 and 503: how long the Worker asks to wait (`Retry-After`), in ms. */
  retryAfterMs?: number;
  /** `wrong_endpoint`: the endpoint that was asked (absolute), to name it. */
  endpoint?: string;
  /** The error answer's extra fields (the refused bet's sector and box, a void record, …). */
  detail?: ApiErrorDetail;
}

export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** The absolute URL of an API path under `endpoint` (an absolute base URL, with or without its final slash). */
export function apiUrl(endpoint: string, path: string): string {
  const base = new URL(endpoint);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(path.replace(/^\/+/, ''), base).href;
}

export interface SendOptions {
  /** The session's bearer token. */
  token?: string | null;
  signal?: AbortSignal;
}

/** Sends `call` once to the Worker at `endpoint` (absolute) and reads the answer: a value, or an error value. */
export async function sendApiCall<T>(fetcher: FetchLike, endpoint: string, call: ApiCall<T>, options: SendOptions = {}): Promise<WireResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
  let response: Response;
  try {
    response = await fetcher(apiUrl(endpoint, call.path), {
      method: call.method,
      headers,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      signal: options.signal ?? null,
    });
  } catch (err) {
    const aborted = (err as Error)?.name === 'AbortError';
    return { ok: false, error: { code: aborted ? 'aborted' : 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: !aborted } };
  }
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  if (response.ok && payload !== null && typeof payload === 'object') return { ok: true, value: payload as T };
  return { ok: false, error: errorOf(response, payload, endpoint) };
}

/** An error answer (or an answer that is not the API's) as an error value. */
function errorOf(response: Response, payload: unknown, endpoint: string): WireError {
  const { status } = response;
  const body = (payload as { error?: { code?: unknown; message?: unknown } & ApiErrorDetail } | null)?.error;
  // The Worker answers every API path with JSON, and every error with a code (API.md). Anything
  // else under 500 (a web page, a framework's 404, a 405 for the POST, JSON of some other API)
  // means no table server is there: the endpoint is missing or wrong.
  if (status < 500 && status !== 429 && typeof body?.code !== 'string') {
    const asked = apiUrl(endpoint, '');
    return {
      code: 'wrong_endpoint',
      message: `no table server answers at ${asked} (HTTP ${status}): the table's endpoint is missing or wrong`,
      status,
      retryable: false,
      endpoint: asked,
    };
  }
  // The Worker's codes are the contract's; an unknown one is passed on as it came.
  const code = typeof body?.code === 'string' ? (body.code as ApiErrorCode) : (`http_${status}` as const);
  const message = typeof body?.message === 'string' ? body.message : response.statusText || `HTTP ${status}`;
  const error: WireError = { code: status === 429 ? 'rate_limited' : code, message, status, retryable: status === 429 || status >= 500 };
  if (status === 429 || status === 503) error.retryAfterMs = Number(response.headers.get('retry-after') ?? 1) * 1000 || 1000;
  if (body) {
    const { code: _code, message: _message, ...detail } = body;
    if (Object.keys(detail).length > 0) error.detail = detail;
  }
  return error;
}
