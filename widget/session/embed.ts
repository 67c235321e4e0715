/**
 * Embedding on other people's pages: why a session could not be opened from this page (loaded
 * lazily with the other parts; the default endpoint is in script-endpoint.ts).
 *
 * A browser hides a refused cross-origin answer (the Worker's `403 origin_not_allowed` carries no
 * CORS headers), so a refusal looks exactly like a dead network. The Worker's embed check is a
 * simple request (no custom headers, no preflight) answered to every origin; it says whether this
 * page may show this affiliate's table, and if not, in words the site owner can act on (API.md
 * "The embed check").
 */
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { apiUrl } from '../../shared/wire/http-client.ts';
import type { ApiError, FetchLike } from './api-client.ts';

/** The URL of the embed check for `affiliate` (null: a session without one) on the Worker at `endpoint`. */
export function embedCheckUrl(endpoint: string, affiliate: string | null, base: string = document.baseURI): string {
  const check = new URL(apiUrl(new URL(endpoint || '/', base).href, apiCalls.embedCheckPath));
  if (affiliate) check.searchParams.set('affiliate', affiliate);
  return check.href;
}

/**
 * Asks the Worker whether this page may embed `affiliate`'s table. Returns the refusal as an
 * `origin_not_allowed` error (the Worker's own message), or null when the page is allowed, the
 * answer is something else, or the check itself cannot be made (then the original error stands).
 */
export async function embedRefusal(fetcher: FetchLike, endpoint: string, affiliate: string | null, signal?: AbortSignal): Promise<ApiError | null> {
  let response: Response;
  try {
    // A plain GET with no headers of ours: a CORS "simple request", so no preflight can be refused.
    response = await fetcher(embedCheckUrl(endpoint, affiliate), { method: 'GET', ...(signal ? { signal } : {}) });
  } catch {
    return null;
  }
  if (response.status !== 403) return null;
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    return null;
  }
  const error = (payload as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (error?.code !== 'origin_not_allowed' || typeof error.message !== 'string') return null;
  return { code: 'origin_not_allowed', message: error.message, status: 403, retryable: false };
}
