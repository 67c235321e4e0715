/**
 * The Worker API client, a reactive controller: requests are aborted when the element leaves the
 * page. Every state-changing request carries an `Idempotency-Key`; a retry — automatic (network
 * failure, 5xx, 429) or the player's Retry button — resends the SAME key with the same body, so the
 * Worker answers with the first result and never pays twice (API.md).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { type ApiCall, apiUrl, type FetchLike, sendApiCall, type WireError, type WireErrorCode } from '../../shared/wire/http-client.ts';

export type { ApiCall, FetchLike };

/**
 * What the client itself concludes beyond the wire's own conclusions (`WireErrorCode`): the
 * session is gone (401, or 404 `not_found`: a new one must be opened).
 */
export type ClientErrorCode = WireErrorCode | 'session_expired';

/** A failed request, as the element shows it. `status` is 0 when the Worker could not be reached. */
export interface ApiError extends Omit<WireError, 'code'> {
  code: WireError['code'] | ClientErrorCode;
  /** `round_pending` the widget cannot finish (its secret is lost): when the round voids. */
  voidAt?: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

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
    return apiUrl(new URL(this.endpoint || '/', document.baseURI).href, path);
  }

  /** The endpoint as asked: the API's base URL, absolute. */
  get endpointUrl(): string {
    return this.url('');
  }

  /**
   * A single-use WebSocket ticket for a shared table, asked once (the table reconnects later). A refusal keeps
   * its code (409 `shared_table_currency`: the table's stakes do not fit a wallet session's limits), and
   * `retryable` says whether asking again may help.
   */
  async sharedTableTicket(tableId: string, token: string): Promise<ApiResult<string>> {
    try {
      const answer = await sendApiCall(this.fetcher, this.endpointUrl, apiCalls.sharedTableTicket(tableId), { token });
      if (!answer.ok) return { ok: false, error: this.#elementError(answer.error) };
      if (typeof answer.value.ticket === 'string') return { ok: true, value: answer.value.ticket };
      return { ok: false, error: { code: 'unreachable', message: 'the ticket answer has no ticket', status: 0, retryable: true } };
    } catch (err) {
      return { ok: false, error: { code: 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: true } };
    }
  }

  /** A shared table's WebSocket URL (ws: or wss:) with its ticket (the session token never goes in a URL). */
  sharedTableSocketUrl(tableId: string, ticket: string): string {
    const url = new URL(this.url(apiCalls.sharedTableSocketPath(tableId)));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('ticket', ticket);
    return url.href;
  }

  /** A shared table's current shoe as one file (a link). */
  sharedTableTranscriptUrl(tableId: string): string {
    return this.url(apiCalls.sharedTableTranscriptPath(tableId));
  }

  /** Sends a call, retrying transient failures automatically with the same idempotency key. */
  async send<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    let result = await this.#once(call);
    for (let attempt = 1; !result.ok && result.error.retryable && attempt <= this.autoRetries; attempt++) {
      await this.#wait(result.error.code === 'rate_limited' ? Math.max(this.retryDelay(attempt), this.#retryAfter) : this.retryDelay(attempt));
      if (this.#aborter.signal.aborted) break;
      result = await this.#once(call);
    }
    return result;
  }

  #retryAfter = 0;

  async #once<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    const result = await sendApiCall(this.fetcher, this.endpointUrl, call, { token: this.token, signal: this.#aborter.signal });
    if (result.ok) return result;
    if (result.error.code === 'rate_limited') this.#retryAfter = Math.min(MAX_RETRY_AFTER_MS, result.error.retryAfterMs ?? 1000);
    return { ok: false, error: this.#elementError(result.error) };
  }

  /** The wire's error as the element reads it: a session the Worker no longer knows; a server failure as unreachable. */
  #elementError(error: WireError): ApiError {
    const { code, status } = error;
    if (code === 'wrong_endpoint' || code === 'rate_limited' || status === 0) return error;
    // A session the Worker no longer knows (evicted, token gone): a new one must be opened.
    if (status === 401 || (status === 404 && code === 'not_found')) return { ...error, code: 'session_expired', retryable: false };
    // Wallet mode's 503 `wallet_unavailable` (the casino's wallet did not answer; nothing was charged) keeps its code.
    return status >= 500 && code !== 'wallet_unavailable' ? { ...error, code: 'unreachable' } : error;
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
