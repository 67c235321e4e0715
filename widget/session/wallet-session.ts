/**
 * Wallet mode on the player's side (lazy chunk): a session a casino launched (`launch-token`), whose
 * money lives in the casino's wallet (WALLET.md). The session's view carries the wallet's part
 * (`SessionCommon.wallet`, shared/api.ts); this keeps it and says what changed: the currency every
 * amount is shown in (the element's one money formatter switches to it), a reality check that now
 * waits for the player (`pb-reality-check`), the session's end (`pb-session-ended`). Betting waits
 * while either shows. The server raises a due reality check or a time limit at the session's next
 * request, so with such a limit the table asks for the session once a minute, and after each round
 * and each refusal (the table session calls `refresh`).
 */
import type { ApiErrorCode, WalletSessionView } from '../../shared/api.ts';
import { emit } from '../element/emit.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { type ApiError, type ApiResult, newIdempotencyKey } from './api-client.ts';
import type { ReadSessionView } from './api-types.ts';
import type { SessionHost, SessionLink } from './table-link.ts';

/** How often a session with a time limit or reality checks is asked for (the server raises them on a request). */
export const WALLET_POLL_MS = 60_000;

/** The codes a launch token is refused with: the table shows them, with no Retry (the token stays refused). */
const LAUNCH_REFUSALS: ReadonlySet<string> = new Set<ApiErrorCode>([
  'launch_token_unknown',
  'launch_token_used',
  'launch_token_expired',
  'launch_wrong_operator',
  'bad_launch',
  'unknown_operator',
]);

export function isLaunchRefusal(code: string): boolean {
  return LAUNCH_REFUSALS.has(code);
}

/** A link the table may offer: http(s) only (a `javascript:` URL from anywhere is never a link). */
export function safeReturnUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

export class WalletWatch {
  readonly #host: SessionHost;
  readonly #link: SessionLink;
  readonly #refresh: () => Promise<unknown>;
  #view: WalletSessionView | null = null;
  #refusedReturnUrl: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** An answer to the reality check is on its way (a second click sends nothing). */
  #answering = false;

  constructor(host: SessionHost, link: SessionLink, refresh: () => Promise<unknown>) {
    this.#host = host;
    this.#link = link;
    this.#refresh = refresh;
  }

  /** The wallet's part of the session's last view, or null: a play session. */
  get view(): WalletSessionView | null {
    return this.#view;
  }

  /** False while a reality check waits for its answer or once the session has ended. */
  get allowsBets(): boolean {
    return !this.#view || (!this.#view.realityCheck && !this.#view.ended);
  }

  /** Where a refused launch sends the player back, when the Worker knew the launch. */
  get refusedReturnUrl(): string | null {
    return this.#refusedReturnUrl;
  }

  /** A session view arrived: keep its wallet part; announce a new reality check or end. */
  take(view: WalletSessionView | null): void {
    const before = this.#view;
    this.#view = view;
    if (view) this.#refusedReturnUrl = null;
    this.#link.walletChanged?.(view);
    if (view?.realityCheck && !before?.realityCheck) {
      const { playedMs, net, wagered } = view.realityCheck;
      emit(this.#host, 'pb-reality-check', { playedMs, net, wagered, currency: view.currency });
    }
    if (view?.ended && !before?.ended) emit(this.#host, 'pb-session-ended', { code: view.ended.code, returnUrl: safeReturnUrl(view.returnUrl) });
    this.#schedule();
    this.#host.requestUpdate();
  }

  /** Sends the player's answer to the reality check on screen: the session's view, or null (no check shows, or an answer is already on its way). */
  async answer(sessionId: string, choice: 'continue' | 'stop'): Promise<ApiResult<ReadSessionView> | null> {
    if (!this.#view?.realityCheck || this.#answering) return null;
    this.#answering = true;
    return this.#link.api.send(apiCalls.answerRealityCheck(sessionId, { choice }, newIdempotencyKey())).finally(() => (this.#answering = false));
  }

  /** The launch token was refused: keep the casino's link back, if the answer names one. */
  launchRefused(error: ApiError): void {
    this.#refusedReturnUrl = safeReturnUrl(error.detail?.returnUrl);
  }

  /** Asks the Worker for the session now (its balance after a credit, a pending payout, a check). */
  async refresh(): Promise<void> {
    await this.#refresh();
  }

  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** With a time limit or reality checks, the session is asked for once a minute while the table is in the page. */
  #schedule(): void {
    this.stop();
    const v = this.#view;
    const timed = v && !v.ended && (v.playerLimits.realityCheckMinutes !== undefined || v.playerLimits.sessionMinutes !== undefined);
    if (!timed || !this.#host.isConnected) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#host.isConnected) void this.refresh();
    }, WALLET_POLL_MS);
  }
}
