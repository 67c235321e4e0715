/**
 * A shared table (`<punto-banco-table table="hall-1/a">`, API.md "Shared tables"), as a reactive
 * controller in its own lazy chunk (shared-table-parts.ts): many players, one shoe, one betting window,
 * one deal for all. The player's money stays in its own session, which the private table's
 * session controller opens (table-session.ts: created or resumed, with the player's Ed25519 key
 * kept in sessionStorage); this controller then joins the table's WebSocket with the session's
 * token and signs its requests (pb-shared-1, FAIRNESS.md part III) with that same key:
 *  - a `start` (a random client seed and cut) when the committed shoe has not started;
 *  - ONE `bet` per round: "Place bet" confirms the chips on the felt; chips not confirmed are sent
 *    by themselves shortly before the close (shared-table-window.ts); once accepted they are locked.
 * It follows the table's messages (state, open, bet, close, deal, settlement, void, reveal,
 * balance) into what the element draws: the countdown, the players, each box's total, the round
 * dealt for all, the player's own result. A dropped socket rejoins with backoff and resynchronises
 * from `state`; a bet not yet acknowledged is sent again as the same signed request (the table
 * counts it once).
 */
import type { ReactiveController } from 'lit';
import type { SharedCommitment, SharedDeal, SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import { type SharedBetRequest, type SignedSharedRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import type { Jwks } from '../../shared/fairness/common/keys.ts';
import { BetProofCheck } from './shared-table-proof.ts';
import { sharedBetRequest } from '../../shared/fairness/pb-shared-1/requests.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { type Bet, type TableLimits, totalStake } from '../../shared/table.ts';
import { type SettledRound, sharedTableRound } from '../round-view.ts';
import { betsLeftOnFelt, checkBets } from '../element/bets.ts';
import { emit } from '../element/emit.ts';
import { SharedTableStart } from './shared-table-start.ts';
import { SharedTableFacts } from './shared-table-facts.ts';
import { sharedShoeGauge, sharedStatusText } from './shared-table-round.ts';
import type { TableSession, TableState } from './table-session.ts';
import type { SharedTableHost, SharedTableLink, SharedTablePhase, SharedTableView, TableBet } from './shared-table-link.ts';
import type { DealRefusal, Notice, TablePlay } from './table-play.ts';
import type { SocketFactory, SocketLike } from '../element/host-types.ts';
import type { ApiError } from './api-client.ts';
import type { ServerMessage, ServerMessageOf, SharedCloseRecord, SharedStartRecord, SharedTableSeat } from '../../shared/wire/shared-table-socket.ts';
import { SharedTableConnection } from './shared-table-connection.ts';
import { SharedDraws } from './shared-table-draws.ts';
import { BettingWindow } from './shared-table-window.ts';
import { type AcceptedBet, NO_BET, type RoundBet } from './shared-table-states.ts';

export type { SharedTableHost, SharedTableLink, SharedTablePhase, SharedTableView, SocketFactory, SocketLike, TableBet };

/** One credit or refund the table owes the player's session (API.md "Money across objects"). */
type Owed = NonNullable<SharedTableSeat['owed']>[number];

export class SharedTableSession implements ReactiveController, TablePlay {
  readonly #host: SharedTableHost;
  readonly #link: SharedTableLink;
  readonly #inner: TableSession;
  #state: TableState = 'loading';
  #notice: Notice | null = null;
  /** The table's WebSocket, reconnected when it drops (shared-table-connection.ts). */
  readonly #connection: SharedTableConnection;
  #closed = false;
  /** The table as its messages tell it: shoe, round, phase, window, everyone's bets (shared-table-facts.ts). */
  readonly #table = new SharedTableFacts();
  /** The countdown and the auto-send of chips not confirmed (shared-table-window.ts). */
  readonly #window = new BettingWindow(
    this.#table,
    () => this.#host.requestUpdate(),
    () => {
      if (this.canBet && this.#betsOnFelt().length > 0 && !this.prepareDeal(this.#betsOnFelt())) void this.runDeal();
    },
  );
  /** This session's start request for the shoe (shared-table-start.ts). */
  readonly #start = new SharedTableStart((m) => this.#connection.send(m));
  /** The player's bet of the table's round: none, being sent (sent again, as is, after a reconnect) or accepted. */
  #bet: RoundBet = NO_BET;
  /** This session's last signed bet request: what its proof in a pb-shared-2 close must lead from. */
  #signed: SignedSharedRequest<SharedBetRequest> | null = null;
  /** The check of this session's bet against each pb-shared-2 close it bet in (FAIRNESS.md §D6). */
  readonly #proofCheck = new BetProofCheck(
    () => this.#jwks(),
    () => this.#host.requestUpdate(),
  );
  #keys: Promise<Jwks | null> | null = null;
  #balance: number | null = null;
  /** Credits and refunds the table still owes this session (its seat's `owed`): shown as "Payout pending", never in the balance. */
  #owed: Owed[] = [];
  /** The table refused this session's seat (a ticket answered with a code): kept to be said again in another language. */
  #refused: ApiError | null = null;
  #onFelt: SettledRound | null = null;
  /** The dealt rounds, drawn one after another, each with the player's settlement when it had a stake (shared-table-draws.ts). */
  readonly #draws = new SharedDraws((deal, settlement, mine) => this.#draw(deal, settlement, mine));

  /** The table id this controller plays (`hall-1/a`). */
  readonly tableId: string;

  constructor(host: SharedTableHost, link: SharedTableLink) {
    this.#host = host;
    this.tableId = host.table ?? '';
    this.#link = link;
    this.#inner = link.session;
    this.#connection = new SharedTableConnection(this.tableId, {
      api: link.api,
      get socketFactory() {
        return host.socketFactory;
      },
      token: () => this.#inner.token,
      wanted: () => !this.#closed && this.#host.isConnected,
      connecting: () => {
        this.#window.run();
        this.#table.phase = 'connecting';
        this.#host.requestUpdate();
      },
      unreachable: () => {
        if (this.#state === 'error') return;
        this.#state = 'error';
        this.#notice = { code: 'unreachable', message: this.#link.t('shared.unreachable'), retry: async () => this.#retryNow() };
        this.#host.requestUpdate();
      },
      refused: (error) => {
        // The seat is refused for good (its stakes do not fit the wallet's limits in its currency): said, and not asked again.
        this.#refused = error;
        this.#state = 'error';
        this.#notice = { code: error.code, message: this.#link.explain(error), retry: null };
        this.#table.phase = 'idle';
        this.#host.requestUpdate();
        emit(this.#host, 'pb-error', { code: error.code, message: this.#notice.message });
      },
      message: (m) => this.#onMessage(m),
    });
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#table.pub && !this.#connection.open && !this.#closed) this.#connection.connect();
  }

  hostDisconnected(): void {
    // A table out of the page leaves the table (its bets stay in the round); back in, it rejoins.
    this.#leave();
  }

  // ---- what the element reads (the private session's members, for a shared table) ------------

  get state(): TableState {
    return this.#inner.state === 'error' || this.#inner.state === 'loading' ? this.#inner.state : this.#state;
  }
  get notice(): Notice | null {
    return this.#inner.notice ?? this.#notice;
  }
  get balance(): number {
    return this.#balance ?? this.#inner.balance;
  }
  /** What the table owes this session and has not paid into its balance yet. */
  get owed(): readonly Owed[] {
    return this.#owed;
  }
  get limits(): TableLimits | null {
    return this.#table.pub?.limits ?? this.#inner.limits;
  }
  get sessionId(): string | null {
    return this.#inner.sessionId;
  }
  get onFelt(): SettledRound | null {
    return this.#onFelt;
  }
  /** A shared table has no private shoe (its shoe is the table's: view()), so the private panels have none to show. */
  get shoe(): null {
    return null;
  }
  get playerKey(): string | null {
    return this.#inner.playerKey;
  }
  /** The table's records are its transcript (view().transcriptUrl), not a private copy. */
  get copy(): null {
    return null;
  }

  /** Chips may be placed now: the window is open and this round's bet is not sent yet. */
  get canBet(): boolean {
    const s = this.state;
    return (
      this.#table.phase === 'betting' &&
      this.#table.pub !== null &&
      this.#bet.kind !== 'sending' &&
      !this.#mineNow() &&
      (s === 'ready' || s === 'settled') &&
      this.#table.left() > 0
    );
  }

  /** The HUD's model. */
  view(): SharedTableView {
    const mine = this.#mineNow();
    const bet = this.#bet;
    return this.#table.view(this.tableId, {
      mine: mine ? { stake: mine.stake, status: 'accepted' } : bet.kind === 'sending' ? { stake: totalStake(bet.bets), status: 'sending' } : null,
      canBet: this.canBet,
      drawing: this.state === 'dealing',
      transcriptUrl: this.#link.api.sharedTableTranscriptUrl(this.tableId),
      verifyUrl: this.#link.api.url('verify'),
      proof: this.#proofCheck.view,
      startProof: this.#proofCheck.startView?.state ?? null,
    });
  }

  /** This session's signed bet request of a round, if it signed one. */
  #signedFor(shoe: number, round: number): SignedSharedRequest<SharedBetRequest> | null {
    const r = this.#signed;
    return r && r.body.shoe === shoe && r.body.round === round ? r : null;
  }

  #player(): string | null {
    return this.#inner.playerKey ?? null;
  }

  /** The operator's public keys (`/.well-known/jwks.json`), fetched once; null when they could not be (asked again next time). */
  #jwks(): Promise<Jwks | null> {
    this.#keys ??= (async () => {
      try {
        const response = await this.#link.api.fetcher(this.#link.api.url('.well-known/jwks.json'), { method: 'GET', headers: { accept: 'application/json' } });
        const body = (await response.json()) as Jwks;
        if (response.ok && Array.isArray(body?.keys)) return { keys: body.keys };
      } catch {
        // No keys: the proof is checked without the close's signature, and the keys asked again next time.
      }
      this.#keys = null;
      return null;
    })();
    return this.#keys;
  }

  /** The status line for a shared table (null: the element's own, e.g. a settled round's result). */
  statusText(): string | null {
    return sharedStatusText(this.view(), this.state, this.#betsOnFelt(), this.#link.t, this.#link.money);
  }

  // ---- the session and the socket --------------------------------------------------------------

  begin(): void {
    this.#inner.begin();
  }

  /** Opens (or resumes) the player's session as a private table would, then joins the shared table. */
  async start(scene: Promise<unknown>, retry: () => Promise<void>): Promise<void> {
    await this.#inner.start(scene, retry);
    if (!this.#inner.sessionId || !this.#host.isConnected) return;
    this.#state = 'ready';
    this.#closed = false;
    this.#connection.connect();
    // The roads under the table: the panels' scoreboard element, in its own chunk.
    void import('../panels/scoreboard.ts');
  }

  forget(): void {
    this.#leave();
    this.#closed = true;
    this.#table.forget();
    this.#bet = NO_BET;
    this.#signed = null;
    this.#proofCheck.reset();
    this.#balance = null;
    this.#owed = [];
    this.#onFelt = null;
    // A new session (another launch) may fit the table: its refusal goes with the old one.
    if (this.#refused) [this.#refused, this.#notice] = [null, null];
    this.#inner.forget();
  }

  /** Leaves the table for good (the table id changes). */
  close(): void {
    this.forget();
    this.#host.removeController(this);
  }

  #leave(): void {
    this.#window.stop();
    this.#connection.leave();
  }

  // ---- the table's messages ---------------------------------------------------------------------

  /** One message of the table, read by its `type` (the protocol's `ServerMessage` union). */
  #onMessage(m: ServerMessage): void {
    switch (m.type) {
      case 'state':
        return this.#onState(m);
      case 'open':
        this.#table.connections(m.connections);
        return this.#onOpen(m.shoe, m.round, m.closesAt);
      case 'bet':
        this.#table.bets.set(m.player, { player: m.player, stake: m.stake, bets: m.bets });
        break;
      case 'close':
        this.#table.connections(m.connections);
        if (m.start) this.#proofCheck.started(m.start, this.#start.requestFor(m.shoe), this.#player());
        this.#proofCheck.closed(m.close, this.#signedFor(m.shoe, m.round), this.#player());
        return this.#onClose(m.round, m.close, m.start);
      case 'proof':
        return this.#proofCheck.proved(m.round, m.proof, this.#signedFor(m.shoe, m.round), this.#player());
      case 'start-proof':
        return this.#proofCheck.startProved(m.shoe, m.proof, this.#start.requestFor(m.shoe), this.#player());
      case 'deal':
        return this.#onDeal(m.deal);
      case 'settlement':
        return this.#draws.settlement(m.settlement);
      case 'void':
        return this.#onVoid(m.round);
      case 'reveal':
        return this.#onReveal(m.commitment);
      case 'balance':
        this.#setBalance(m.balance);
        // A credit or refund the table owed, paid now.
        this.#owed = this.#owed.filter((o) => o.transfer !== m.transfer);
        break;
      case 'bet-ack':
        return this.#onBetAck(m);
      case 'bet-refused':
        return this.#onBetRefused(m);
      case 'start-ack':
        this.#start.answered(true);
        break;
      case 'start-refused':
        if (this.#start.refused(m.code)) this.#link.refuse(m.code, m.message);
        break;
      case 'error':
        this.#link.refuse(m.code, m.message);
        break;
    }
    this.#host.requestUpdate();
  }

  #retryNow(): Promise<void> {
    this.#leave();
    this.#connection.reconnectNow();
    return Promise.resolve();
  }

  #onState(s: ServerMessageOf<'state'>): void {
    this.#connection.answered();
    if (this.#state === 'error') {
      this.#state = 'ready';
      this.#notice = null;
    }
    const limitsBefore = this.#table.pub?.limits;
    const newShoe = this.#table.state(s);
    if (JSON.stringify(s.limits) !== JSON.stringify(limitsBefore)) this.#link.limitsChanged();
    if (s.you?.balance !== undefined) this.#setBalance(s.you.balance);
    this.#owed = s.you?.owed ?? [];
    this.#start.started = s.you?.started ?? (newShoe ? false : this.#start.started);
    const me = this.#inner.playerKey;
    const taken = s.you?.bets.find((b) => b.player === me && b.status === 'accepted');
    if (newShoe) this.#proofCheck.reset();
    if (taken) this.#signed = taken.request;
    // A resync: the shoe's start and this session's start proof come with the state (checked once per shoe).
    if (s.shoe.start && s.you?.startProof) {
      // The request this tab signed, else (after a reload) the table's copy of it: the check still needs it signed by this player's key.
      const request = this.#start.requestFor(s.shoe.number) ?? s.you.startRequest ?? null;
      this.#proofCheck.started(s.shoe.start, request, this.#player());
      this.#proofCheck.startProved(s.shoe.number, s.you.startProof, request, this.#player());
    }
    // A resync while a round awaits its beacon: the close and this session's proof come with the state.
    if (s.close && s.you?.proof) {
      this.#proofCheck.closed(s.close, this.#signedFor(s.shoe.number, s.round), this.#player());
      this.#proofCheck.proved(s.round, s.you.proof, this.#signedFor(s.shoe.number, s.round), this.#player());
    }
    if (taken) {
      // The table's word: this round's bet is in (whatever this tab was still sending).
      this.#bet = { kind: 'accepted', shoe: s.shoe.number, round: taken.request.body.round, bets: taken.request.body.bets, stake: taken.stake };
      // A reload: the felt is empty, but the table holds this round's bet — it goes back on the boxes, locked.
      if (this.#link.bets.bets.length === 0) this.#link.bets.reset(taken.request.body.bets);
    }
    // A bet sent before the socket dropped and never answered: the same signed request again (counted once).
    if (this.#bet.kind === 'sending' && this.#bet.request) this.#connection.send({ type: 'bet', request: this.#bet.request });
    this.#showShoe();
    this.#startIfNeeded();
    this.#window.arm();
    this.#host.requestUpdate();
  }

  #onOpen(shoe: number, round: number, closesAt: string): void {
    if (!this.#table.pub) return;
    // A squeeze still waiting on this screen (display only) ends as the next window opens: the table never waits for it, nor does the player's betting time.
    this.#link.scene()?.turnCards?.('all');
    if (!this.#table.open(shoe, round, closesAt)) {
      // A shoe whose reveal this tab missed: its commitment comes with the state.
      this.#start.started = false;
      this.#connection.send({ type: 'state' });
    }
    this.#startIfNeeded();
    this.#window.arm();
    this.#host.requestUpdate();
  }

  #onClose(round: number, close: SharedCloseRecord, start?: SharedStartRecord): void {
    if (!this.#table.pub) return;
    this.#window.disarm();
    this.#table.close(round, close, start);
    if (this.#bet.kind === 'sending' && this.#bet.round === round) {
      // Sent but not in the close: it came too late.
      this.#bet = NO_BET;
      this.#link.refuse('betting_closed');
    }
    const mine = this.#mineNow();
    this.#link.announce(this.#link.t('shared.closedSaid') + (mine ? ` ${this.#link.t('shared.accepted', { amount: this.#link.money(mine.stake) })}` : ''));
    this.#host.requestUpdate();
  }

  #onDeal(deal: SignedShared<SharedDeal>): void {
    this.#table.idle(deal.body);
    const mine = this.#bet.kind === 'accepted' && this.#bet.round === deal.body.round ? this.#bet : null;
    // The player's settlement follows the deal at once: draw both together.
    if (!this.#draws.deal(deal, mine)) return;
    this.#state = 'dealing';
    this.#host.requestUpdate();
  }

  #onVoid(round: number): void {
    this.#table.idle();
    const mine = this.#bet.kind === 'accepted' && this.#bet.round === round;
    if (this.#bet.kind === 'accepted') this.#bet = NO_BET;
    this.#link.refuse(mine ? 'voidMine' : 'void');
    this.#host.requestUpdate();
  }

  #onReveal(commitment: SignedShared<SharedCommitment>): void {
    if (!this.#table.pub || !commitment) return;
    this.#table.revealed(commitment);
    this.#start.newShoe();
    this.#link.announce(this.#link.t('shared.newShoe', { number: commitment.body.shoe }));
    void this.#draws.queue(async () => {
      const scene = this.#link.scene();
      await scene?.shuffleAndCut?.(0.5);
      this.#showShoe();
    });
  }

  #onBetAck(m: ServerMessageOf<'bet-ack'>): void {
    const sent = this.#bet;
    if (sent.kind === 'sending' && sent.round === m.round && sent.shoe === m.shoe) {
      this.#bet = { kind: 'accepted', shoe: sent.shoe, round: sent.round, bets: sent.bets, stake: m.stake };
      this.#link.announce(this.#link.t('shared.accepted', { amount: this.#link.money(m.stake) }));
    }
    if (typeof m.balance === 'number') this.#setBalance(m.balance);
    this.#host.requestUpdate();
  }

  #onBetRefused(m: ServerMessageOf<'bet-refused'>): void {
    const sent = this.#bet.kind === 'sending' ? this.#bet : null;
    if (m.duplicate && sent?.round !== m.round) return;
    const request = sent?.request;
    if (m.code === 'start_required' && sent && request && !sent.restarted) {
      // The table has no start of ours for this shoe (one lost on the way): send it, then the same bet (once).
      sent.restarted = true;
      this.#start.newShoe();
      void this.#ensureStarted().then(() => this.#bet === sent && this.#connection.send({ type: 'bet', request }));
      return;
    }
    if (sent) this.#bet = NO_BET;
    if (typeof m.balance === 'number') this.#setBalance(m.balance);
    this.#link.refuse(m.code, m.message ?? '');
    this.#host.requestUpdate();
  }

  // ---- betting ------------------------------------------------------------------------------------

  /** The player changed the chips: a drawn round leaves the felt. */
  betsTouched(): void {
    if (this.#state === 'settled') {
      this.#onFelt = null;
      void this.#link.scene()?.clearRound();
      this.#state = 'ready';
    }
    this.#notice = null;
    this.#window.arm();
    this.#host.requestUpdate();
  }

  /** Checks the chips for "Place bet"; returns why they cannot go, else null (`runDeal` sends them). */
  prepareDeal(bets: readonly Bet[]): DealRefusal | null {
    const limits = this.limits;
    if (!limits) return { code: 'empty_bet', message: '' };
    const checked = checkBets(bets, limits, this.balance);
    if (!checked.ok) return checked.error;
    if (checked.value.length === 0) return { code: 'empty_bet', message: '' };
    return null;
  }

  /** "Place bet": signs this round's one bet request with the chips on the felt and sends it. */
  async runDeal(): Promise<void> {
    const pub = this.#table.pub;
    const key = this.#inner.signingKey;
    const bets = this.#betsOnFelt();
    if (!pub || !key || this.#table.phase !== 'betting' || this.#bet.kind === 'sending' || this.#mineNow() || bets.length === 0) return;
    this.#window.disarm();
    const { number: shoe } = pub.shoe;
    const round = pub.round;
    const player = playerKeyOf(key);
    // Marked before the signature (an await): a second press in between sends nothing.
    const sending: RoundBet = { kind: 'sending', shoe, round, bets: [...bets], request: null, restarted: false };
    this.#bet = sending;
    this.#host.requestUpdate();
    const request = await signSharedRequest(sharedBetRequest(pub.tableId, shoe, round, player, bets), key);
    if (this.#bet !== sending) return;
    sending.request = request;
    this.#signed = request;
    await this.#ensureStarted();
    if (this.#bet === sending) this.#connection.send({ type: 'bet', request });
  }

  async retry(): Promise<void> {
    if (this.#inner.notice) return this.#inner.retry();
    const retry = this.#notice?.retry;
    this.#notice = null;
    if (this.#state === 'error') this.#state = 'ready';
    await retry?.();
  }

  resay(): void {
    this.#inner.resay();
    if (this.#refused && this.#notice) this.#notice = { ...this.#notice, message: this.#link.explain(this.#refused) };
  }

  showShoe(): void {
    this.#showShoe();
  }

  /** Nobody starts or ends a shared table's shoe by hand: every seated player's start is sent by itself, and the table reveals. */
  async startShoe(): Promise<boolean> {
    return false;
  }

  async endShoe(): Promise<null> {
    return null;
  }

  #betsOnFelt(): readonly Bet[] {
    return this.#link.bets.bets;
  }

  #mineNow(): AcceptedBet | null {
    const a = this.#bet.kind === 'accepted' ? this.#bet : null;
    const pub = this.#table.pub;
    if (!a || !pub) return null;
    return a.shoe === pub.shoe.number && a.round === pub.round ? a : null;
  }

  #startIfNeeded(): void {
    const pub = this.#table.pub;
    if (!pub || pub.shoe.start || this.#start.started || this.#table.phase !== 'betting') return;
    void this.#start.send(pub.shoe, this.#inner.signingKey);
  }

  /** Sends the start request of a shoe not started yet and waits for its answer (a bet before it would be refused). */
  async #ensureStarted(): Promise<void> {
    if (this.#table.pub) await this.#start.ensure(this.#table.pub.shoe, this.#inner.signingKey);
  }

  #setBalance(balance: number): void {
    this.#balance = balance;
    this.#inner.setBalance(balance);
  }

  #showShoe(): void {
    const scene = this.#link.scene();
    const shoe = this.#table.pub?.shoe;
    if (scene && shoe) scene.setShoe(sharedShoeGauge(shoe));
  }

  /** Draws a round dealt for all: the player's own bets and payouts if it had a stake in it. */
  async #draw(deal: SignedShared<SharedDeal>, settlement: SignedShared<SharedSettlement> | null, mine: AcceptedBet | null): Promise<void> {
    const d = deal.body;
    const s = settlement?.body;
    const body = sharedTableRound(deal, mine?.bets ?? [], s ?? null, this.balance);
    this.#state = 'dealing';
    this.#host.requestUpdate();
    this.#table.drawn(d);
    this.#onFelt = null;
    await this.#link.scene()?.clearRound();
    this.#onFelt = body;
    this.#showShoe();
    await this.#link.scene()?.playRound(body);
    const params = this.#table.pub?.shoe.params;
    if (d.cutCardOut && params?.mode === 'shoe' && params.cutCardFromEnd) await this.#link.scene()?.cutCardOut?.();
    if (!this.#host.isConnected) return;
    if (s) this.#setBalance(s.balanceAfter);
    // Something still owed: the state says whether the table paid it meanwhile (off the round's path). Asked once the round is drawn, so the felt's shoe is not moved under it.
    if (s && this.#owed.length > 0) this.#connection.send({ type: 'state' });
    if (mine) {
      if (this.#bet.kind === 'accepted' && this.#bet.round === d.round) this.#bet = NO_BET;
      this.#link.bets.settle(body.bets, betsLeftOnFelt(body.bets, body.outcome, this.limits, this.balance));
    }
    this.#state = 'settled';
    this.#host.requestUpdate();
    if (mine && settlement) {
      this.#link.played(body, settlement);
      emit(this.#host, 'pb-round-settled', settlement);
    } else this.#link.watched(body);
    this.#window.arm();
  }
}
