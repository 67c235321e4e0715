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
 * changes answer `protocol_retired`) is dropped quietly for a new one.
 */
import type { ReactiveController } from 'lit';
import type { Bet, RoomId, TableLimits } from '../../shared/table.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { SignedRequest, StartRequest } from '../../shared/fairness/pb-fair-2/records.ts';
import { type ApiError, type ApiResult, newIdempotencyKey } from './api-client.ts';
import type { AcceptanceAnswer, Acceptance, PlayedRound, ReadRoundAnswer, ReadSessionView, ShoeStartAnswer, ShoeState, Signed } from './api-types.ts';
import { betsLeftOnFelt, checkBets, sameBets } from '../element/bets.ts';
import { emit } from '../element/emit.ts';
import type { ShoeEndAnswer } from '../panels/drawer-link.ts';
import { keepRound, newRound, PlayerCopy, playerKeyOf, type RoundInFlight, signEnd, signSecret, signStart, type SigningKey, resumedRound } from './player.ts';
import { privateRound, privateRounds, type SettledRound } from '../round-view.ts';
import { launchStorageKey, SessionStore, storageKey } from './session-store.ts';
import type { WalletSessionView } from '../../shared/api.ts';
import { isLaunchRefusal, WalletWatch } from './wallet-session.ts';
import { openSession, type OpenSession, type SessionState } from './session-open.ts';
import type { SessionHost, SessionLink } from './table-link.ts';
import { ShoeMeter } from './shoe-meter.ts';
import { chooseShoeStart } from './shoe-start.ts';
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
  #pendingStart: { shoe: number; request: SignedRequest<StartRequest>; key: string; cut: number } | null = null;
  /** Bets checked for a deal, and the key their bet request will carry. */
  #pendingRound: { bets: Bet[]; key: string } | null = null;
  /** The round being played (secret and signed requests stored before the bet is sent). */
  #round: RoundInFlight | null = null;
  /** A round the Worker holds that this tab cannot finish (its secret is lost): it voids at `voidAt`. */
  #orphan: { acceptance: Signed<Acceptance>; voidAt: string } | null = null;
  /** A pb-fair-1 session was dropped once for this deal (no loop if the Worker keeps refusing). */
  #retired = false;
  /** The settled round the felt shows (until swept): a rebuilt scene draws it again. */
  #onFelt: SettledRound | null = null;
  /** An answer to the reality check is on its way (a second click sends nothing). */
  #answering = false;
  /** The open session's room as the Worker says (a launched session's is the launch's, whatever `room` says). */
  #room: RoomId | null = null;
  /** Wallet mode (a launched session): the wallet's view, its reality check and end (wallet-session.ts). */
  readonly #wallet: WalletWatch;

  constructor(host: SessionHost, link: SessionLink) {
    this.#host = host;
    this.#link = link;
    this.#meter = new ShoeMeter(link);
    this.#wallet = new WalletWatch(host, link, () => this.#refresh());
    host.addController(this);
  }

  get #shoe(): ShoeState | null {
    return this.#meter.shoe;
  }

  set #shoe(shoe: ShoeState | null) {
    this.#meter.shoe = shoe;
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
    if (!session || !this.#wallet.view?.realityCheck || this.#answering) return false;
    this.#answering = true;
    const answer: ApiResult<ReadSessionView> = await this.#link.api
      .send(apiCalls.answerRealityCheck(session.id, { choice }, newIdempotencyKey()))
      .finally(() => (this.#answering = false));
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
    return this.#shoe;
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
    if (this.#round?.acceptance) await this.runDeal();
    else if (this.#orphan) this.#showOrphan();
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

  #drop(): void {
    this.#session = { kind: 'none' };
    this.#pendingRound = null;
    this.#pendingStart = null;
    this.#round = null;
    this.#orphan = null;
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
    const key = launch ? launchStorageKey(api.url(''), launch.token) : storageKey(api.url(''), host.room, affiliate);
    const store = (this.#store = ['off', 'false'].includes(String(host.resume).trim().toLowerCase())
      ? null
      : new SessionStore(key + (host.mode === 'reshuffle' ? '|reshuffle' : '')));
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
    this.#round = round;
    this.#orphan = orphan;
    if (round) this.#pendingRound = { bets: round.bets, key: round.betKey };
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
    this.#meter.set(s.shoe, s.shoe.number !== this.#shoe?.number);
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

  /** "Cut and start": the player's fresh choice, not an earlier failed attempt's (hence no pending start). */
  async startShoe(): Promise<boolean> {
    if (!this.canBet || this.#shoe?.status !== 'awaiting-start') return false;
    this.#pendingStart = null;
    return this.#startShoe();
  }

  /** Starts a committed shoe with the provider's seed and cut, signed by the player (kept, with its key, for retries). */
  async #startShoe(): Promise<boolean> {
    const shoe = this.#shoe;
    const session = this.#live;
    if (!shoe || !session) return false;
    if (this.#pendingStart?.shoe !== shoe.number) {
      const choice = await chooseShoeStart(this.#host, this.#host.shoeStartProvider ?? this.#link.defaultProvider, shoe);
      if (!choice || !shoe.commitment) {
        this.#set('ready'); // the player backed out of choosing a seed and cut
        return false;
      }
      const request = await signStart(session.player, shoe.commitment, choice.clientSeed, choice.cut);
      this.#copy?.sending(request);
      this.#pendingStart = { shoe: shoe.number, request, key: newIdempotencyKey(), cut: choice.cut };
    }
    const pending = this.#pendingStart;
    const answer: ApiResult<ShoeStartAnswer> = await this.#link.api.send(apiCalls.startShoe(session.id, pending.request, pending.key));
    if (!answer.ok && answer.error.code !== 'shoe_already_started') {
      this.#roundFailed(answer.error);
      return false;
    }
    this.#pendingStart = null;
    if (answer.ok) {
      this.#copy?.add(answer.value.shoe.start);
      if (answer.value.shoe.start) this.#head = answer.value.shoe.start;
      this.#shoe = { ...shoe, ...answer.value.shoe, status: 'in-play' };
    } else if (!(await this.#refresh())) {
      this.#roundFailed(answer.error);
      return false;
    }
    if (this.#shoe) this.#link.shoeStarted(this.#shoe);
    await this.#meter.shuffleAndCut(shoe, pending.cut);
    return true;
  }

  /** Ends the shoe in play early with the player's signed end request: the Worker reveals its server seed and commits the next shoe. Null when it cannot now. */
  async endShoe(key: string): Promise<ApiResult<ShoeEndAnswer> | null> {
    const session = this.#live;
    if (!this.canBet || this.#shoe?.status !== 'in-play' || !this.#head || !session || this.#round) return null;
    const before = this.#state;
    this.#set('dealing'); // no bet or deal while the shoe changes
    // Ed25519 signatures are deterministic: a retry after the same head sends the same body.
    const request = await signEnd(session.player, this.#head);
    this.#copy?.sending(request);
    const answer: ApiResult<ShoeEndAnswer> = await this.#link.api.send(apiCalls.endShoe(session.id, request, key));
    if (this.#state === 'dealing') this.#set(before);
    if (answer.ok) {
      this.#copy?.add(answer.value.reveal, answer.value.nextShoe.commitment);
      this.#balance = answer.value.balance;
      this.#head = answer.value.nextShoe.commitment ?? answer.value.reveal;
      this.#meter.unhold();
      this.#meter.set(answer.value.nextShoe, true);
    }
    return answer;
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

  /**
   * Checks the bets on the felt for a deal; returns why they cannot be dealt, else keeps them
   * for `runDeal`. The same bets as a failed attempt keep that attempt's key: the Worker may
   * already have accepted them. A round already signed keeps its bets: it is finished first.
   */
  prepareDeal(bets: readonly Bet[]): DealRefusal | null {
    if (this.#round) return null;
    if (!this.#limits) return { code: 'empty_bet', message: '' };
    const checked = checkBets(bets, this.#limits, this.#balance);
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

  /**
   * Starts the shoe if it waits, then plays the round: phase 1 sends the bets kept by
   * `prepareDeal` with the lock of a fresh secret (stored first), phase 2 sends the secret. A
   * retry goes on from the phase that failed.
   */
  async runDeal(): Promise<void> {
    this.#set('dealing', null);
    this.#link.hideToast();
    if (this.#session.kind !== 'open' && !(await this.#open(() => this.runDeal()))) return;
    const session = this.#live;
    if (!session) return;
    if (!this.#round && this.#shoe?.status !== 'in-play' && !(await this.#startShoe())) return;
    let round = this.#round;
    if (!round) {
      const pending = this.#pendingRound;
      const head = this.#head;
      // No bets waiting: this was the retry of a shoe started without a deal ("Cut and start").
      if (!pending || !head) return this.#set('ready');
      round = await newRound(session.player, session.id, head, (this.#shoe?.rounds ?? 0) + 1, pending.bets, {
        betKey: pending.key,
        secretKey: newIdempotencyKey(),
      });
      // The secret is stored before the bet leaves: a reload after the acceptance can still deal.
      this.#keep(round);
      this.#copy?.sending(round.bet);
    }
    if (!round.acceptance) {
      const answer = await this.#link.api.send(apiCalls.placeBet(session.id, round.bet, round.betKey));
      if (!answer.ok) return this.#betFailed(answer.error);
      this.#accepted(round, answer.value);
    }
    await this.#reveal(round);
  }

  #keep(round: RoundInFlight | null): void {
    this.#round = round;
    if (this.#store) keepRound(this.#store.storage, this.#store.key, round);
  }

  /** Phase 1 answered: the stake is debited; the acceptance is the table's newest record. */
  #accepted(round: RoundInFlight, a: AcceptanceAnswer): void {
    this.#keep({ ...round, acceptance: a.acceptance });
    this.#copy?.add(a.acceptance);
    this.#head = a.acceptance;
    this.#balance = a.balance;
    if (this.#shoe) this.#shoe = { ...this.#shoe, ...a.shoe };
    this.#host.requestUpdate();
  }

  /** Phase 2: the secret, signed, for the acceptance; the receipt plays the round. */
  async #reveal(round: RoundInFlight): Promise<void> {
    const session = this.#live;
    const current = this.#round;
    const acceptance = current?.acceptance;
    if (!session || !current || !acceptance) return;
    let reveal = current.reveal;
    if (!reveal) {
      reveal = await signSecret(session.player, acceptance, current.secret);
      this.#keep({ ...current, reveal });
      this.#copy?.sending(reveal);
    }
    const answer: ApiResult<ReadRoundAnswer> = await this.#link.api.send(apiCalls.revealSecret(session.id, reveal, round.secretKey));
    if (!answer.ok) {
      if (answer.error.code === 'round_voided') return this.#voided(answer.error);
      return this.#roundFailed(answer.error);
    }
    const a = answer.value;
    this.#keep(null);
    this.#pendingRound = null;
    this.#copy?.add(a.receipt, a.reveal, a.nextShoe?.commitment);
    this.#head = a.nextShoe?.commitment ?? a.reveal ?? a.receipt;
    await this.#play({ ...a, round: privateRound(acceptance.body, a.receipt) });
  }

  /** Phase 1 failed. `round_pending`: the Worker holds an acceptance — ours (finish it) or one this tab lost. */
  async #betFailed(error: ApiError): Promise<void> {
    if (error.code !== 'round_pending') {
      // A refusal (4xx): the Worker accepted nothing; the next deal signs the bets on the felt afresh.
      if (!error.retryable && error.status >= 400 && error.status < 500 && error.code !== 'session_expired' && this.#round) {
        this.#copy?.unsent(this.#round.bet);
        this.#keep(null);
      }
      return this.#roundFailed(error);
    }
    const view = await this.#refresh();
    const held = view?.pending;
    if (held && held.acceptance.body.request.body.lock === this.#round?.bet.body.lock) {
      this.#accepted(this.#round, { acceptance: held.acceptance, balance: view.balance, voidAt: held.voidAt, shoe: view.shoe });
      return this.#reveal(this.#round);
    }
    this.#orphan = held ?? null;
    if (this.#orphan) return this.#showOrphan();
    this.#roundFailed(error);
  }

  /** The round voided (its secret came too late): the stake is back, the bets stay on the felt. */
  async #voided(error: ApiError): Promise<void> {
    this.#keep(null);
    this.#pendingRound = null;
    await this.#refresh();
    this.#fail(error, null);
  }

  /** A round this tab cannot finish: say when it voids; Retry asks the Worker again. */
  #showOrphan(): void {
    const orphan = this.#orphan;
    if (!orphan) return;
    const error: ApiError = {
      code: 'round_pending',
      message: `round ${orphan.acceptance.body.round} waits for its secret`,
      status: 409,
      retryable: false,
      voidAt: orphan.voidAt,
    };
    this.#fail(error, async () => {
      const view = await this.#refresh();
      this.#orphan = view ? view.pending : this.#orphan;
      if (this.#orphan) this.#showOrphan();
      else this.#set('ready', null);
    });
  }

  #roundFailed(error: ApiError): void {
    if (error.code === 'aborted') return;
    if (error.code === 'protocol_retired' && !this.#retired) {
      // A pb-fair-1 session: open a new one quietly, as for a forgotten session, and deal there.
      this.#retired = true;
      const live = this.#live;
      if (live) this.#store?.forget(live.id);
      const bets = this.#pendingRound;
      this.#drop();
      this.#pendingRound = bets;
      void this.runDeal().finally(() => (this.#retired = false));
      return;
    }
    const live = this.#live;
    if (error.code === 'session_expired' && live) {
      this.#store?.forget(live.id);
      this.#session = { kind: 'expired', player: live.player, copy: live.copy };
    }
    if (error.code === 'session_expired') {
      this.#pendingStart = null;
      this.#keep(null);
    }
    if (error.code === 'shoe_not_started' && this.#shoe) this.#shoe = { ...this.#shoe, status: 'awaiting-start' };
    this.#fail(error, () => this.runDeal());
    // Wallet mode: a refusal may come with a reality check, a session's end or a new wallet balance.
    if (this.#wallet.view) void this.#wallet.refresh();
  }

  async #play(answer: PlayedRound): Promise<void> {
    const body = answer.round;
    const reshuffle = this.#shoe?.params?.mode === 'reshuffle';
    this.#meter.unhold();
    // The scene may go (out of view) or be rebuilt between these awaits: ask for it each time.
    this.#onFelt = null;
    await this.#link.scene()?.clearRound();
    if (reshuffle && this.#meter.consumed > 0) {
      // A fresh stack every round: the last round's cards go back with a short shuffle first.
      this.#meter.refill();
      this.showShoe();
      await this.#link.scene()?.reshuffle?.();
    }
    if (reshuffle) this.#meter.refill();
    this.#meter.consume(body);
    this.showShoe();
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
    } else if (this.#shoe) this.#shoe = { ...this.#shoe, ...answer.shoe };
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
