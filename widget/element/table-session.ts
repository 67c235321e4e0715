/**
 * The table's life with the Worker, as a reactive controller (lazy chunk): the session (new, resumed
 * after a reload, reopened for another room), the shoe and the round. It owns where the table is
 * (`state`), the balance and limits the Worker last reported, the error notice with its Retry, and
 * the one copy of the shoe state (the scene's shoe drawing and the panels read it from here).
 *
 * States: `loading` → `ready` → `dealing` → `settled` (→ `ready` at the next bet), and `error`,
 * which keeps the bets and offers Retry; a retry resends the same request with the same
 * Idempotency-Key, so a round the Worker already played is answered again, never played twice.
 * The element keeps the texts, the drawing and the input; it hears of each step through the link.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CARDS_PER_DECK } from '../../shared/cards.ts';
import { betResult } from '../../shared/settle.ts';
import type { Bet, RoomId, TableLimits } from '../../shared/table.ts';
import type { ShoeMode } from '../../shared/shoe.ts';
import type { TableScene } from '../scene/index.ts';
import { type ApiClient, type ApiError, type ApiResult, type FetchLike, newIdempotencyKey } from './api-client.ts';
import type { ReceiptBody, RoundAnswer, SessionAnswer, ShoeStartAnswer, ShoeStartChoice, ShoeState, Signed } from './api-types.ts';
import type { BetState } from './bet-state.ts';
import { type BetProblem, checkBets, sameBets } from './bets.ts';
import { embedRefusal } from './embed.ts';
import { emit } from './emit.ts';
import type { ShoeEndAnswer } from './panels-controller.ts';
import { resumeSession, SessionStore, storageKey } from './session-store.ts';
import { shoeDecks, type ShoeStartProvider } from './shoe-start.ts';

/** Where the table is in its life. */
export type TableState = 'loading' | 'ready' | 'dealing' | 'settled' | 'error';

/** What failed, in the table's words, and how to try again (null: nothing to retry). */
export interface Notice {
  code: string;
  message: string;
  retry: (() => Promise<void>) | null;
}

/** Why the bets on the felt cannot be dealt (nothing was sent). */
export type DealRefusal = BetProblem | { code: 'empty_bet'; message: string };

/** The element as the session reads it: the attributes the page set, and its shoe-start hook. */
export interface SessionHost extends ReactiveControllerHost, HTMLElement {
  readonly endpoint: string;
  readonly room: RoomId;
  readonly affiliate: string | null;
  /** `shoe` or `reshuffle`: the table mode a new session is created in. */
  readonly mode: ShoeMode;
  readonly resume: string;
  readonly shoeStartProvider: ShoeStartProvider | null;
}

/** What the element lends the session, and what it wants to hear. */
export interface SessionLink {
  readonly api: ApiClient;
  readonly bets: BetState;
  fetcher(): FetchLike;
  scene(): TableScene | null;
  /** The seed and cut of a shoe when the page set no provider (the fairness panel's). */
  defaultProvider: ShoeStartProvider;
  /** An API error in the table's language. */
  explain(error: ApiError): string;
  hideToast(): void;
  /** The session is open (new, or resumed with the receipts of its current shoe). */
  opened(receipts: Signed<ReceiptBody>[]): void;
  /** The shoe in play was started. */
  shoeStarted(shoe: ShoeState): void;
  /** A round was dealt, drawn and settled (the bets already kept or swept). */
  played(answer: RoundAnswer): void;
}

export class TableSession implements ReactiveController {
  readonly #host: SessionHost;
  readonly #link: SessionLink;
  #state: TableState = 'loading';
  #notice: Notice | null = null;
  #lastError: ApiError | null = null;
  #balance = 0;
  #limits: TableLimits | null = null;
  #session: { id: string; token: string } | null = null;
  /** Where this tab keeps the session for a reload (null: `resume="off"`, or not opened yet). */
  #store: SessionStore | null = null;
  /** Only the first boot resumes a stored session. */
  #resumable = true;
  #createKey: string | null = null;
  #shoe: ShoeState | null = null;
  /** Cards the shoe has given so far (the highest position dealt, plus one). */
  #consumed = 0;
  #pendingStart: { shoe: number; body: ShoeStartChoice; key: string } | null = null;
  #pendingRound: { bets: Bet[]; key: string } | null = null;
  /** The settled round the felt shows (until swept): a rebuilt scene draws it again. */
  #onFelt: ReceiptBody | null = null;
  /** A shuffle was shown (a reshuffle table shows only its first). */
  #shuffled = false;

  constructor(host: SessionHost, link: SessionLink) {
    this.#host = host;
    this.#link = link;
    host.addController(this);
  }

  /** Nothing to do: the session outlives a move of the table in the page (disconnected, connected again). */
  hostConnected(): void {}

  get state(): TableState {
    return this.#state;
  }

  get notice(): Notice | null {
    return this.#notice;
  }

  get balance(): number {
    return this.#balance;
  }

  get limits(): TableLimits | null {
    return this.#limits;
  }

  get sessionId(): string | null {
    return this.#session?.id ?? null;
  }

  /** The shoe in play or waiting for its cut, as the Worker last described it. */
  get shoe(): ShoeState | null {
    return this.#shoe;
  }

  get onFelt(): ReceiptBody | null {
    return this.#onFelt;
  }

  /** Whether the bets may change (and a deal start) now. */
  get canBet(): boolean {
    const s = this.#state;
    return this.#limits !== null && this.#session !== null && (s === 'ready' || s === 'settled' || (s === 'error' && this.#notice?.code !== 'session_expired'));
  }

  #set(state: TableState, notice: Notice | null = this.#notice): void {
    this.#state = state;
    this.#notice = notice;
    this.#host.requestUpdate();
  }

  // ---- the session ----------------------------------------------------------------------------

  /** The table (re)boots: nothing to bet on or retry until `start` has opened the session. */
  begin(): void {
    this.#set('loading', null);
  }

  /** Opens the session and, once `scene` is up, takes bets (pb-ready). A failure shows with `retry`. */
  async start(scene: Promise<unknown>, retry: () => Promise<void>): Promise<void> {
    const opened = await this.#open(retry);
    await scene;
    if (!opened || !this.#host.isConnected) return;
    this.#set('ready');
    emit(this.#host, 'pb-ready', { sessionId: this.#session!.id, room: this.#host.room, balance: this.#balance, limits: this.#limits! });
  }

  /** Drops the session (a new room, affiliate or Worker: the attributes say so) before opening a new one. */
  forget(): void {
    this.#store?.release(this.#host);
    this.#resumable = false;
    this.#link.bets.reset();
    this.#session = null;
    this.#createKey = null;
    this.#pendingRound = null;
    this.#pendingStart = null;
    // The old room's round leaves the felt at once: nothing of it may show on the new one.
    this.#onFelt = null;
    void this.#link.scene()?.clearRound({ instant: true });
  }

  /**
   * Opens the table's session: on the first boot, the one this tab stored for this endpoint, room and
   * affiliate (if the Worker still knows it: session-store.ts), else a new one. On failure shows
   * the error with `retry`.
   */
  async #open(retry: () => Promise<void>): Promise<boolean> {
    const { api } = this.#link;
    const host = this.#host;
    api.endpoint = host.endpoint;
    const affiliate = host.affiliate || null;
    const store = (this.#store = ['off', 'false'].includes(String(host.resume).trim().toLowerCase()) ? null : new SessionStore(storageKey(api.url(''), host.room, affiliate) + (host.mode === 'reshuffle' ? '|reshuffle' : '')));
    // A create already under way (a Retry) goes on with its key; otherwise a stored session comes first.
    const stored = this.#resumable && !this.#createKey ? store?.claim(host) : null;
    if (stored) {
      const result = await resumeSession(api, store!, stored, host.room, affiliate);
      if (result.kind === 'resumed') {
        const { view, receipts } = result.value;
        this.#opened(stored, view, receipts);
        return true;
      }
      if (result.kind === 'failed') return this.#openFailed(result.error, retry);
    }
    this.#createKey ??= newIdempotencyKey();
    api.token = null;
    const body = { room: host.room, ...(affiliate ? { affiliate } : {}), ...(host.mode === 'reshuffle' ? { mode: host.mode } : {}) };
    const answer = await api.send<SessionAnswer>({ method: 'POST', path: 'api/sessions', body, idempotencyKey: this.#createKey });
    if (!answer.ok) {
      let error = answer.error;
      // A page the Worker refuses gets no CORS headers, which looks like a dead network: ask why.
      if (error.code === 'unreachable' && error.status === 0) error = (await embedRefusal(this.#link.fetcher(), host.endpoint, affiliate)) ?? error;
      return this.#openFailed(error, retry);
    }
    const s = answer.value;
    const session = { sessionId: s.sessionId, token: s.token };
    store?.keep(host, session);
    this.#opened(session, s, []);
    return true;
  }

  #openFailed(error: ApiError, retry: () => Promise<void>): false {
    if (error.code !== 'aborted' && this.#host.isConnected) this.#fail(error, retry);
    return false;
  }

  /** The session is open (new, or resumed with the receipts of its current shoe): the table takes its state. */
  #opened(session: { sessionId: string; token: string }, s: { balance: number; limits: TableLimits; shoe: ShoeState }, receipts: Signed<ReceiptBody>[]): void {
    this.#createKey = null;
    this.#session = { id: session.sessionId, token: session.token };
    this.#link.api.token = session.token;
    this.#balance = s.balance;
    this.#limits = s.limits;
    this.#setShoe(s.shoe, true);
    for (const r of receipts) this.#consume(r.body);
    this.showShoe();
    this.#host.requestUpdate();
    this.#link.opened(receipts);
  }

  // ---- the shoe -------------------------------------------------------------------------------

  #setShoe(shoe: ShoeState, fresh: boolean): void {
    if (fresh || shoe.number !== this.#shoe?.number) {
      this.#consumed = 0;
      this.#shoe = { ...shoe };
    } else {
      this.#shoe = { ...this.#shoe, ...shoe };
    }
    this.showShoe();
  }

  /** The cards a round used are gone from the shoe. */
  #consume(body: ReceiptBody): void {
    for (const card of body.cards) this.#consumed = Math.max(this.#consumed, card.position + 1);
  }

  /** Draws how much of the shoe is left. */
  showShoe(): void {
    const scene = this.#link.scene();
    if (!this.#shoe || !scene) return;
    const total = shoeDecks(this.#shoe) * CARDS_PER_DECK;
    const cutAt = this.#cutAt;
    scene.setShoe({ cardsLeft: Math.max(0, total - this.#consumed), total, discarded: this.#consumed, ...(cutAt ? { cutAt } : {}) });
  }

  /** Cards left in the shoe when the cut card comes out (shoe mode; reshuffle mode has no cut card). */
  get #cutAt(): number | undefined {
    const params = this.#shoe?.params;
    return params?.mode === 'reshuffle' ? undefined : params?.cutCardFromEnd;
  }

  /** "Cut and start": the player's fresh choice, not an earlier failed attempt's (hence no pending start). */
  async startShoe(): Promise<boolean> {
    if (!this.canBet || this.#shoe?.status !== 'awaiting-start') return false;
    this.#pendingStart = null;
    return this.#startShoe();
  }

  /** Starts a committed shoe with the provider's seed and cut (kept, with its key, for retries). */
  async #startShoe(): Promise<boolean> {
    const shoe = this.#shoe!;
    if (this.#pendingStart?.shoe !== shoe.number) {
      const choice = await this.#choose(shoe);
      if (!choice) {
        this.#set('ready'); // the player backed out of choosing a seed and cut
        return false;
      }
      this.#pendingStart = { shoe: shoe.number, body: { clientSeed: choice.clientSeed, cut: choice.cut }, key: newIdempotencyKey() };
    }
    const pending = this.#pendingStart;
    const answer = await this.#link.api.send<ShoeStartAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/shoe/start`,
      body: pending.body,
      idempotencyKey: pending.key,
    });
    if (!answer.ok && answer.error.code !== 'shoe_already_started') {
      this.#roundFailed(answer.error);
      return false;
    }
    this.#pendingStart = null;
    this.#shoe = { ...shoe, ...(answer.ok ? answer.value.shoe : {}), status: 'in-play' };
    this.#link.shoeStarted(this.#shoe);
    await this.#shuffleAndCut(shoe, pending.body.cut);
    return true;
  }

  /**
   * The new shoe is shuffled and cut on the felt where the player cut it, then goes in full. A
   * reshuffle table (a fresh stack every round) shows it for its first shoe only.
   */
  async #shuffleAndCut(shoe: ShoeState, cut: number): Promise<void> {
    const scene = this.#link.scene();
    const total = shoeDecks(shoe) * CARDS_PER_DECK;
    if (scene?.shuffleAndCut && (shoe.params?.mode !== 'reshuffle' || !this.#shuffled)) {
      this.#shuffled = true;
      await scene.shuffleAndCut(Math.min(0.95, Math.max(0.05, cut / total)));
    }
    this.#consumed = 0;
    this.showShoe();
  }

  /** The page's provider, else the default; a provider that fails counts as no choice, and says why. */
  async #choose(shoe: ShoeState): Promise<ShoeStartChoice | null> {
    try {
      return await (this.#host.shoeStartProvider ?? this.#link.defaultProvider)(shoe);
    } catch (err) {
      emit(this.#host, 'pb-error', { code: 'shoe_start_failed', message: String((err as Error)?.message ?? err) });
      return null;
    }
  }

  /** Ends the shoe in play early: the Worker reveals its server seed and commits the next shoe. Null when it cannot now. */
  async endShoe(key: string): Promise<ApiResult<ShoeEndAnswer> | null> {
    if (!this.canBet || this.#shoe?.status !== 'in-play') return null;
    const before = this.#state;
    this.#set('dealing'); // no bet or deal while the shoe changes
    const answer = await this.#link.api.send<ShoeEndAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/shoe/end`,
      body: {},
      idempotencyKey: key,
    });
    if (this.#state === 'dealing') this.#set(before);
    if (answer.ok) this.#setShoe(answer.value.nextShoe, true);
    return answer;
  }

  // ---- the round ------------------------------------------------------------------------------

  /** The player changed the bets: a settled round leaves the felt, an error notice goes. */
  betsTouched(): void {
    if (this.#state === 'settled') {
      this.#onFelt = null;
      void this.#link.scene()?.clearRound();
    }
    if (this.#state !== 'ready') this.#set('ready', null);
  }

  /**
   * Checks the bets on the felt for a deal; returns why they cannot be dealt, else keeps them
   * for `runDeal`. The same bets as a failed attempt keep that attempt's key: the Worker may
   * already have dealt them.
   */
  prepareDeal(bets: readonly Bet[]): DealRefusal | null {
    const checked = checkBets(bets, this.#limits!, this.#balance);
    if (!checked.ok) return checked.error;
    if (checked.value.length === 0) return { code: 'empty_bet', message: '' };
    if (!this.#pendingRound || !sameBets(this.#pendingRound.bets, checked.value)) {
      this.#pendingRound = { bets: checked.value, key: newIdempotencyKey() };
    }
    return null;
  }

  /** Retries whatever failed, resending the same request with the same Idempotency-Key. */
  async retry(): Promise<void> {
    const retry = this.#notice?.retry;
    if (!retry) return;
    this.#notice = null;
    await retry();
  }

  /** Starts the shoe if it waits, sends the bets kept by `prepareDeal` and plays the round dealt. */
  async runDeal(): Promise<void> {
    this.#set('dealing', null);
    this.#link.hideToast();
    if (!this.#session && !(await this.#open(() => this.runDeal()))) return;
    if (this.#shoe?.status !== 'in-play' && !(await this.#startShoe())) return;
    const pending = this.#pendingRound;
    // No bets waiting: this was the retry of a shoe started without a deal ("Cut and start").
    if (!pending) return this.#set('ready');
    const answer = await this.#link.api.send<RoundAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/rounds`,
      body: { bets: pending.bets },
      idempotencyKey: pending.key,
    });
    if (!answer.ok) return this.#roundFailed(answer.error);
    this.#pendingRound = null;
    await this.#play(answer.value);
  }

  #roundFailed(error: ApiError): void {
    if (error.code === 'aborted') return;
    if (error.code === 'session_expired') {
      if (this.#session) this.#store?.forget(this.#session.id);
      this.#session = null;
      this.#pendingStart = null;
    }
    if (error.code === 'shoe_not_started' && this.#shoe) this.#shoe = { ...this.#shoe, status: 'awaiting-start' };
    this.#fail(error, () => this.runDeal());
  }

  async #play(answer: RoundAnswer): Promise<void> {
    const body = answer.receipt.body;
    this.#consume(body);
    // The scene may go (out of view) or be rebuilt between these awaits: ask for it each time.
    this.showShoe();
    this.#onFelt = null;
    await this.#link.scene()?.clearRound();
    this.#onFelt = body;
    await this.#link.scene()?.playRound(body);
    if (body.cutCardOut && this.#cutAt) await this.#link.scene()?.cutCardOut?.();
    if (!this.#host.isConnected) return;
    this.#balance = answer.balance;
    // Bets that push (Player and Banker on a tie: RULES.md) were returned and stay on the felt.
    const staying = body.bets.filter((b) => betResult(b.box, body.outcome) === 'push');
    const kept = staying.length && this.#limits ? checkBets(staying, this.#limits, this.#balance) : null;
    this.#link.bets.settle(body.bets, kept?.ok ? kept.value : []);
    this.#set('settled');
    if (answer.nextShoe) this.#setShoe(answer.nextShoe, true);
    else if (this.#shoe) this.#shoe = { ...this.#shoe, ...answer.shoe };
    this.#link.played(answer);
  }

  // ---- errors ---------------------------------------------------------------------------------

  #fail(error: ApiError, retry: () => Promise<void>): void {
    this.#lastError = error;
    const message = this.#link.explain(error);
    this.#set('error', { code: error.code, message, retry });
    emit(this.#host, 'pb-error', { code: error.code, message });
  }

  /** The language changed: the error on screen is said again in the new one. */
  resay(): void {
    if (this.#notice && this.#lastError) this.#set(this.#state, { ...this.#notice, message: this.#link.explain(this.#lastError) });
  }
}
