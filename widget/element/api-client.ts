/**
 * The Worker API client, a reactive controller: requests are aborted when the element leaves the
 * page. Every state-changing request carries an `Idempotency-Key`; a retry — automatic (network
 * failure, 5xx, 429) or the player's Retry button — resends the SAME key with the same body, so the
 * Worker answers with the first result and never pays twice (API.md).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ApiErrorCode } from '../../shared/api.ts';
import type { FetchLike } from './host-types.ts';

export type { FetchLike };

/**
 * What the client itself concludes: the request was aborted, the Worker could not be reached (or
 * failed), the session is gone; `wrong_endpoint` when what answered is not a table server (the
 * page's `endpoint` is missing or wrong: a page, a 404, JSON that is not the API's); `http_<status>`
 * for any other error answer without a code.
 */
export type ClientErrorCode = 'aborted' | 'unreachable' | 'session_expired' | 'wrong_endpoint' | `http_${number}`;

/** A failed request, as the element shows it. `status` is 0 when the Worker could not be reached. */
export interface ApiError {
  code: ApiErrorCode | ClientErrorCode;
  message: string;
  status: number;
  /** Worth sending again unchanged (network, server or rate-limit trouble). */
  retryable: boolean;
  /** `round_pending` the widget cannot finish (its secret is lost): when the round voids. */
  voidAt?: string;
  /** `wrong_endpoint`: the endpoint that was asked (absolute), to name it. */
  endpoint?: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** One request, kept while it may still be retried. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Set for state-changing requests; reused by every retry of this request. */
  idempotencyKey?: string;
}

/** Longest wait honoured from a `Retry-After` header before an automatic retry. */
const MAX_RETRY_AFTER_MS = 3_000;

/** A fresh idempotency key: 128 random bits in hex (works outside secure contexts, unlike randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class ApiClient implements ReactiveController {
  /** Base URL of the Worker (`endpoint` attribute), resolved against the page. */
  endpoint = '/';
  /** Bearer token of the current session. */
  token: string | null = null;
  /** Automatic retries of a retryable failure before the error is shown (each with the same key). */
  autoRetries = 2;
  /** Delay before automatic retry n (1-based), in ms. */
  retryDelay = (attempt: number): number => 250 * attempt;
  fetcher: FetchLike = (input, init) => fetch(input, init);

  #aborter = new AbortController();

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#aborter.signal.aborted) this.#aborter = new AbortController();
  }

  hostDisconnected(): void {
    this.#aborter.abort();
  }

  /** The absolute URL of an API path such as `api/sessions`. */
  url(path: string): string {
    const base = new URL(this.endpoint || '/', document.baseURI);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    return new URL(path.replace(/^\/+/, ''), base).href;
  }

  /** Sends a request, retrying transient failures automatically with the same idempotency key. */
  async send<T>(request: ApiRequest): Promise<ApiResult<T>> {
    let result = await this.#once<T>(request);
    for (let attempt = 1; !result.ok && result.error.retryable && attempt <= this.autoRetries; attempt++) {
      await this.#wait(result.error.code === 'rate_limited' ? Math.max(this.retryDelay(attempt), this.#retryAfter) : this.retryDelay(attempt));
      if (this.#aborter.signal.aborted) break;
      result = await this.#once<T>(request);
    }
    return result;
  }

  #retryAfter = 0;

  async #once<T>(request: ApiRequest): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    let response: Response;
    try {
      response = await this.fetcher(this.url(request.path), {
        method: request.method,
        headers,
        body: request.body === undefined ? null : JSON.stringify(request.body),
        signal: this.#aborter.signal,
      });
    } catch (err) {
      const aborted = (err as Error)?.name === 'AbortError';
      return {
        ok: false,
        error: { code: aborted ? 'aborted' : 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: !aborted },
      };
    }
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    if (response.ok && payload !== null && typeof payload === 'object') return { ok: true, value: payload as T };
    return { ok: false, error: this.#errorOf(response, payload) };
  }

  /** The endpoint as asked: the API's base URL, absolute. */
  get endpointUrl(): string {
    return this.url('');
  }

  #errorOf(response: Response, payload: unknown): ApiError {
    const body = (payload as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    // The Worker answers every API path with JSON, and every error with a code (API.md). Anything
    // else under 500 (a web page, a framework's 404, a 405 for the POST, JSON of some other API)
    // means no table server is there: the page's `endpoint` is missing or wrong.
    if (response.status < 500 && response.status !== 429 && typeof body?.code !== 'string') {
      const endpoint = this.endpointUrl;
      return {
        code: 'wrong_endpoint',
        message: `no table server answers at ${endpoint} (HTTP ${response.status}): the table's endpoint is missing or wrong`,
        status: response.status,
        retryable: false,
        endpoint,
      };
    }
    // The Worker's codes are the contract's; an unknown one is passed on as it came.
    const code = typeof body?.code === 'string' ? (body.code as ApiErrorCode) : (`http_${response.status}` as const);
    const message = typeof body?.message === 'string' ? body.message : response.statusText || `HTTP ${response.status}`;
    const status = response.status;
    if (status === 429) {
      this.#retryAfter = Math.min(MAX_RETRY_AFTER_MS, Number(response.headers.get('retry-after') ?? 1) * 1000 || 1000);
      return { code: 'rate_limited', message, status, retryable: true };
    }
    // A session the Worker no longer knows (evicted, token gone): a new one must be opened.
    if (status === 401 || (status === 404 && code === 'not_found')) return { code: 'session_expired', message, status, retryable: false };
    if (status >= 500 || payload === null) return { code: status >= 500 ? 'unreachable' : code, message, status, retryable: status >= 500 };
    return { code, message, status, retryable: false };
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#aborter.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
