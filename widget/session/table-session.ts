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
 *
 * pb-fair-2 (FAIRNESS.md part II; the player's side is player.ts): the session is created with the
 * player's public key; every change is a request the player signs. One Deal click plays a round
 * in two phases: the widget draws the round's secret and signs the bet with its lock, STORES both
 * (sessionStorage) and only then sends the bet (→ acceptance: the stake is debited, the balance
 * shows it); then, at once, it sends the secret (→ receipt: the cards). Each phase has its own
 * Idempotency-Key, kept with the round, so a retry of either is answered, never played twice. A
 * reload or a dropped connection between the phases finishes the round from the stored secret;
 * without it, the round voids at `voidAt` and the stake comes back. A pb-fair-1 session (its
 * changes answer `protocol_retired`) is dropped quietly for a new one. The parts: the shoe's start
 * and end (shoe-changes.ts), the round's two phases (round-phases.ts), the shoe's gauge
 * (shoe-meter.ts), wallet mode (wallet-session.ts), opening (session-open.ts).
 */
import type { ReactiveController } from 'lit';
import type { Bet, RoomId, TableLimits } from '../../shared/table.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { ApiError, ApiResult } from './api-client.ts';
import type { PlayedRound, ReadSessionView, ShoeState, Signed } from './api-types.ts';
import { betsLeftOnFelt } from '../element/bets.ts';
import { emit } from '../element/emit.ts';
import type { ShoeEndAnswer } from '../panels/drawer-link.ts';
import { PlayerCopy, playerKeyOf, type SigningKey, resumedRound } from './player.ts';
import { privateRounds, type SettledRound } from '../round-view.ts';
import { type SessionStore, tableStore } from './session-store.ts';
import type { WalletSessionView } from '../../shared/api.ts';
import { isLaunchRefusal, WalletWatch } from './wallet-session.ts';
import { openSession, type OpenSession, type SessionState } from './session-open.ts';
import type { PrivateParts } from './private-parts.ts';
import { RoundPhases } from './round-phases.ts';
import { ShoeChanges } from './shoe-changes.ts';
import type { SessionHost, SessionLink } from './table-link.ts';
import { ShoeMeter } from './shoe-meter.ts';
import type { TableState } from '../element/host-types.ts';
import type { DealRefusal, Notice, TablePlay } from './table-play.ts';

export type { DealRefusal, Notice, SessionHost, SessionLink, TableState };

export class TableSession implements ReactiveController, TablePlay {
  readonly #host: SessionHost;
  readonly #link: SessionLink;
  #state: TableState = 'loading';
  #notice: Notice | null = null;
  #lastError: ApiError | null = null;
  #balance = 0;
  #limits: TableLimits | null = null;
  #session: SessionState = { kind: 'none' };
  /** Where this tab keeps the session for a reload (null: `resume="off"`, or not opened yet). */
  #store: SessionStore | null = null;
  /** Only the first boot resumes a stored session. */
  #resumable = true;
  /** The table's newest record: the next bet or end request follows it. */
  #head: Signed | null = null;
  /** The shoe, and what the felt's gauge shows of it (shoe-meter.ts). */
  readonly #meter: ShoeMeter;
  /** The shoe's start and end (shoe-changes.ts), the round in two phases (round-phases.ts). */
  readonly #shoes: ShoeChanges;
  readonly #rounds: RoundPhases;
  /** A pb-fair-1 session was dropped once for this deal (no loop if the Worker keeps refusing). */
  #retired = false;
  /** The settled round the felt shows (until swept): a rebuilt scene draws it again. */
  #onFelt: SettledRound | null = null;
  /** The open session's room as the Worker says (a launched session's is the launch's, whatever `room` says). */
  #room: RoomId | null = null;
  /** Wallet mode (a launched session): the wallet's view, its reality check and end (wallet-session.ts). */
  readonly #wallet: WalletWatch;

  constructor(host: SessionHost, link: SessionLink) {
    this.#host = host;
    this.#link = link;
    this.#meter = new ShoeMeter(link);
    this.#wallet = new WalletWatch(host, link, () => this.#refresh());
    const parts = this.#partsFor(host, link);
    this.#shoes = new ShoeChanges(parts);
    this.#rounds = new RoundPhases(parts);
    host.addController(this);
  }

  /** What the shoe's changes and the round's phases share with the session (private-parts.ts). */
  #partsFor(host: SessionHost, link: SessionLink): PrivateParts {
    const self = this;
    return {
      host,
      link,
      meter: this.#meter,
      get state() {
        return self.#state;
      },
      get canBet() {
        return self.canBet;
      },
      get head() {
        return self.#head;
      },
      set head(head) {
        self.#head = head;
      },
      get balance() {
        return self.#balance;
      },
      set balance(balance) {
        self.#balance = balance;
      },
      get limits() {
        return self.#limits;
      },
      live: () => this.#live,
      copy: () => this.#copy,
      store: () => this.#store,
      set: (state, notice?) => this.#set(state, notice),
      fail: (error, retry) => this.#fail(error, retry),
      roundFailed: (error) => this.#roundFailed(error),
      refresh: () => this.#refresh(),
    };
  }

  /** The open session, or null. */
  get #live(): OpenSession | null {
    return this.#session.kind === 'open' ? this.#session : null;
  }

  /** The player's signing key (open or expired session). */
  get #player(): SigningKey | null {
    const s = this.#session;
    return s.kind === 'open' || s.kind === 'expired' ? s.player : null;
  }

  /** The player's own copy of the records (open or expired session). */
  get #copy(): PlayerCopy | null {
    const s = this.#session;
    return s.kind === 'open' || s.kind === 'expired' ? s.copy : null;
  }

  /** Nothing to do: the session outlives a move of the table in the page (disconnected, connected again). */
  hostConnected(): void {}

  /** The table left the page: no wallet polling while it is away. */
  hostDisconnected(): void {
    this.#wallet.stop();
  }

  /** Wallet mode: the session's wallet view (currency, pending payouts, reality check, end), or null: play money. */
  get wallet(): WalletSessionView | null {
    return this.#wallet.view;
  }

  /** A refused launch's link back to the casino, when the Worker knew the launch; else null. */
  get refusedReturnUrl(): string | null {
    return this.#wallet.refusedReturnUrl;
  }

  /** The player's answer to the reality check: continue (betting goes on) or stop (the session ends). */
  async answerRealityCheck(choice: 'continue' | 'stop'): Promise<boolean> {
    const session = this.#live;
    const answer = session ? await this.#wallet.answer(session.id, choice) : null;
    if (!answer) return false;
    if (!answer.ok) {
      this.#fail(answer.error, async () => void (await this.answerRealityCheck(choice)));
      return false;
    }
    this.#applyView(answer.value);
    if (this.#state === 'error') this.#set('ready', null);
    return true;
  }

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
    return this.#live?.id ?? null;
  }

  /** The player's public key (`x`, base64url) the session's records name, or null before it opens. */
  get playerKey(): string | null {
    return this.#player ? playerKeyOf(this.#player) : null;
  }

  /** The player's signing key (a shared table's requests are signed with it too), or null before the session opens. */
  get signingKey(): SigningKey | null {
    return this.#player;
  }

  /** The session's token (a shared table's WebSocket carries it), or null. */
  get token(): string | null {
    return this.#live?.token ?? null;
  }

  /** The balance moved elsewhere (a shared table's transfers): the session's view follows. */
  setBalance(balance: number): void {
    this.#balance = balance;
    this.#host.requestUpdate();
  }

  /** The player's own copy of the session's records (null before it opens). */
  get copy(): PlayerCopy | null {
    return this.#copy;
  }

  /** The shoe in play or waiting for its cut, as the Worker last described it. */
  get shoe(): ShoeState | null {
    return this.#meter.shoe;
  }

  get onFelt(): SettledRound | null {
    return this.#onFelt;
  }

  /** Whether the bets may change (and a deal start) now. */
  get canBet(): boolean {
    const s = this.#state;
    return (
      this.#limits !== null &&
      this.#live !== null &&
      this.#wallet.allowsBets &&
      (s === 'ready' || s === 'settled' || (s === 'error' && this.#notice?.code !== 'session_expired'))
    );
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

  /**
   * Opens the session and, once `scene` is up, takes bets (pb-ready). A failure shows with `retry`.
   * A round left between its phases by a reload is finished now from its stored secret.
   */
  async start(scene: Promise<unknown>, retry: () => Promise<void>): Promise<void> {
    const opened = await this.#open(retry);
    await scene;
    const session = this.#live;
    const limits = this.#limits;
    if (!opened || !session || !limits || !this.#host.isConnected) return;
    this.#set('ready');
    emit(this.#host, 'pb-ready', { sessionId: session.id, room: this.#room ?? this.#host.room, balance: this.#balance, limits });
    if (this.#rounds.accepted) await this.runDeal();
    else this.#rounds.showOrphan();
  }

  /** Drops the session (a new room, affiliate or Worker: the attributes say so) before opening a new one. */
  forget(): void {
    this.#meter.unhold();
    this.#store?.release(this.#host);
    this.#resumable = false;
    this.#link.bets.reset();
    this.#drop();
    // The old room's round leaves the felt at once: nothing of it may show on the new one.
    this.#onFelt = null;
    void this.#link.scene()?.clearRound({ instant: true });
  }

  #drop(keepBets = false): void {
    this.#session = { kind: 'none' };
    this.#shoes.forget();
    this.#rounds.drop(keepBets);
    this.#head = null;
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
    const launch = host.launchToken ? { token: host.launchToken, operator: host.operator || null } : null;
    const store = (this.#store = tableStore(api.url(''), host));
    // A create already under way (a Retry) goes on with its key; otherwise a stored session comes first.
    const creating = this.#session.kind === 'creating' ? this.#session : null;
    const request = { room: host.room, affiliate, mode: host.mode, endpoint: host.endpoint, claimer: host, launch };
    const opening = await openSession(api, this.#link.fetcher(), request, store, this.#resumable && !creating, creating, (c) => {
      this.#session = { kind: 'creating', ...c };
    });
    if (opening.kind === 'failed') return this.#openFailed(opening.error, retry);
    this.#opened(opening.session, opening.player, opening.view, opening.records);
    return true;
  }

  #openFailed(error: ApiError, retry: () => Promise<void>): false {
    // A refused launch token stays refused: no Retry, the casino's link back instead (when known).
    if (isLaunchRefusal(error.code)) this.#wallet.launchRefused(error);
    if (error.code !== 'aborted' && this.#host.isConnected) this.#fail(error, isLaunchRefusal(error.code) ? null : retry);
    return false;
  }

  /** The session is open (new, or resumed with the records of its current shoe): the table takes its state. */
  #opened(session: { sessionId: string; token: string }, player: SigningKey, s: ReadSessionView, records: Signed[]): void {
    const storage = this.#store?.storage ?? null;
    const entry = this.#store?.key ?? null;
    const copy = new PlayerCopy(session.sessionId, storage, entry);
    this.#session = { kind: 'open', id: session.sessionId, token: session.token, player, copy };
    this.#room = s.room;
    this.#link.api.token = session.token;
    copy.add(s.shoe.commitment, s.shoe.start, ...records, s.pending?.acceptance, s.lastReceipt, s.head);
    this.#take(s);
    this.#meter.set(s.shoe, true);
    const rounds = privateRounds(records);
    for (const r of rounds) this.#meter.consume(r);
    // A round between its phases: finish it from the stored secret, else it voids at voidAt.
    const { round, orphan } = resumedRound(storage, entry, session.sessionId, s.pending);
    this.#rounds.resume(round, orphan);
    this.showShoe();
    this.#host.requestUpdate();
    this.#link.opened(rounds);
  }

  /** The balance, limits, newest record and wallet of a session view. */
  #take(s: Pick<ReadSessionView, 'balance' | 'limits' | 'head' | 'wallet'>): void {
    this.#balance = s.balance;
    this.#limits = s.limits;
    this.#head = s.head;
    this.#wallet.take(s.wallet ?? null);
    // A reality check or the session's end is on screen now: it says why betting waits, in place of the refusal.
    if (!this.#wallet.allowsBets && this.#state === 'error') this.#set('ready', null);
  }

  /** Asks the Worker where the session stands (after a void, a start answered elsewhere, a round pending). */
  async #refresh(): Promise<ReadSessionView | null> {
    const session = this.#live;
    if (!session) return null;
    const answer: ApiResult<ReadSessionView> = await this.#link.api.send(apiCalls.sessionState(session.id));
    if (!answer.ok) return null;
    this.#applyView(answer.value);
    return answer.value;
  }

  /** A session view the Worker answered: the copy, the balance and limits, the shoe. */
  #applyView(s: ReadSessionView): void {
    this.#copy?.add(s.shoe.commitment, s.shoe.start, s.head);
    this.#take(s);
    this.#meter.set(s.shoe, s.shoe.number !== this.#meter.shoe?.number);
    this.#host.requestUpdate();
  }

  // ---- the shoe -------------------------------------------------------------------------------

  /** Draws how much of the shoe is left (what it showed before, while the shoe's last hand is on the felt). */
  showShoe(): void {
    this.#meter.show();
  }

  /** The next round is certainly the shoe's last: the table announces it before the deal. */
  get lastHandNext(): boolean {
    return this.#meter.lastHandNext;
  }

  /** "Cut and start": the player's fresh choice (shoe-changes.ts). */
  async startShoe(): Promise<boolean> {
    return this.#shoes.startFresh();
  }

  /** Ends the shoe in play early with the player's signed end request: the Worker reveals its server seed and commits the next shoe. Null when it cannot now. */
  async endShoe(key: string): Promise<ApiResult<ShoeEndAnswer> | null> {
    return this.#shoes.end(key, this.#rounds.inFlight);
  }

  // ---- the round ------------------------------------------------------------------------------

  /** The player changed the bets: a settled round leaves the felt, an error notice goes. */
  betsTouched(): void {
    if (this.#state === 'settled') {
      this.#onFelt = null;
      void this.#link.scene()?.clearRound();
      this.#meter.release();
    }
    if (this.#state !== 'ready') this.#set('ready', null);
  }

  /** Checks the bets on the felt for a deal; why they cannot be dealt, else null (round-phases.ts). */
  prepareDeal(bets: readonly Bet[]): DealRefusal | null {
    return this.#rounds.prepare(bets);
  }

  /** Retries whatever failed, resending the same request with the same Idempotency-Key. */
  async retry(): Promise<void> {
    const retry = this.#notice?.retry;
    if (!retry) return;
    this.#notice = null;
    await retry();
  }

  /**
   * Starts the shoe if it waits, then plays the round (round-phases.ts) and draws it. A retry
   * goes on from the phase that failed.
   */
  async runDeal(): Promise<void> {
    this.#set('dealing', null);
    this.#link.hideToast();
    if (this.#session.kind !== 'open' && !(await this.#open(() => this.runDeal()))) return;
    const session = this.#live;
    if (!session) return;
    if (!this.#rounds.inFlight && this.#meter.shoe?.status !== 'in-play' && !(await this.#shoes.start())) return;
    const played = await this.#rounds.deal(session);
    if (played) await this.#play(played);
  }

  #roundFailed(error: ApiError): void {
    if (error.code === 'aborted') return;
    if (error.code === 'protocol_retired' && !this.#retired) {
      // A pb-fair-1 session: open a new one quietly, as for a forgotten session, and deal there.
      this.#retired = true;
      const live = this.#live;
      if (live) this.#store?.forget(live.id);
      this.#drop(true);
      void this.runDeal().finally(() => (this.#retired = false));
      return;
    }
    const live = this.#live;
    if (error.code === 'session_expired' && live) {
      this.#store?.forget(live.id);
      this.#session = { kind: 'expired', player: live.player, copy: live.copy };
    }
    if (error.code === 'session_expired') {
      this.#shoes.forget();
      this.#rounds.abandon();
    }
    if (error.code === 'shoe_not_started' && this.#meter.shoe) this.#meter.shoe = { ...this.#meter.shoe, status: 'awaiting-start' };
    this.#fail(error, () => this.runDeal());
    // Wallet mode: a refusal may come with a reality check, a session's end or a new wallet balance.
    if (this.#wallet.view) void this.#wallet.refresh();
  }

  async #play(answer: PlayedRound): Promise<void> {
    const body = answer.round;
    this.#meter.unhold();
    // The scene may go (out of view) or be rebuilt between these awaits: ask for it each time.
    this.#onFelt = null;
    await this.#link.scene()?.clearRound();
    await this.#meter.dealFrom(body);
    this.#onFelt = body;
    await this.#link.scene()?.playRound(body);
    if (body.cutCardOut && this.#meter.cutAt) await this.#link.scene()?.cutCardOut?.();
    if (!this.#host.isConnected) return;
    this.#balance = answer.balance;
    this.#link.bets.settle(body.bets, betsLeftOnFelt(body.bets, body.outcome, this.#limits, this.#balance));
    this.#set('settled');
    if (answer.nextShoe) {
      this.#meter.hold();
      this.#meter.set(answer.nextShoe, true);
    } else if (this.#meter.shoe) this.#meter.shoe = { ...this.#meter.shoe, ...answer.shoe };
    this.#link.played(answer);
    // Wallet mode: the wallet's balance after the credit, and any payout still pending, come from the session.
    if (this.#wallet.view) void this.#wallet.refresh();
  }

  // ---- errors ---------------------------------------------------------------------------------

  #fail(error: ApiError, retry: (() => Promise<void>) | null): void {
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
