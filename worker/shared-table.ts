/**
 * `SharedTable`: one Durable Object per shared table (issue 13), addressed by its table id
 * (`hall-1/a`, shared-protocol.ts). Players connect by WebSocket through the Hibernation API
 * (`ctx.acceptWebSocket`): an idle table is evicted from memory and costs nothing; each socket is
 * tagged with its session id, and its attachment says whose it is. The table holds the round and
 * signs its pb-shared-1 records (shared/fairness/shared-table, FAIRNESS.md part III); each
 * player's money stays in their session object (`Table`), moved only by exactly-once transfers
 * (shared-wallet.ts). Players sign their own start and bet requests; their key is their pseudonym.
 *
 * The round loop runs on the object's alarm, never on timers:
 *   betting (a window) → close (the signed close record: every accepted bet request, the first
 *   beacon round published after the close) → wait for that beacon round → deal from the
 *   committed shoe and the beacon value, one signed settlement per player, broadcast → next window.
 * A window that closes with no bets opens again only while someone is connected; with nobody
 * connected and nothing owed, no alarm is left: the table sleeps. A beacon round later than the
 * committed deadline voids the round: the void record, and every stake back by a refund transfer.
 *
 * Crash safety: every step is one `transactionSync` writing its records and the next state
 * together, re-entered from the stored state by the next alarm (the platform re-runs an alarm that
 * threw; a restart finds the stored alarm, and any request re-arms what the state needs). A
 * transfer is written as pending before the session is asked and settled when its answer is
 * recorded; pending ones are asked again, with the same id, on every alarm.
 */
import { DurableObject } from 'cloudflare:workers';
import { type BeaconChain, type BeaconRound, timeOfRound } from '../shared/beacon.ts';
import {
  buildClose,
  buildSharedCommitment,
  buildSharedDeal,
  buildSharedReveal,
  buildSharedStart,
  buildSharedVoid,
  checkSharedStartRequest,
  DEFAULT_BEACON_DEADLINE_SECONDS,
  type SharedBetRequest,
  type SharedCommitment,
  type SharedDeal,
  type SharedParams,
  type SharedShoeState,
  type SharedStart,
  sharedRevealDue,
  sharedStartInputs,
  type SignedShared,
  type SignedSharedRequest,
  signSharedRecord,
  signSharedSettlements,
  startSharedShoe,
  validateSharedBet,
  validateSharedRequest,
  voidNotBefore,
} from '../shared/fairness/shared-table/index.ts';
import { outcomeCode } from '../shared/fairness/shared-table/outcomes.ts';
import { sharedTransferId } from '../shared/fairness/v2/transfer.ts';
import { canonicalJson, DEFAULT_SHOE_PARAMS, defaultShoeRules, newServerSeed, ROOMS, totalStake } from '../shared/index.ts';
import { beaconSource, type BeaconSource, fetchBeacon, type Fetcher, VerifiedRounds } from './beacon.ts';
import { configuredTables, type Env, isDev, seatsPerAddress, sharedTiming } from './env.ts';
import { signingKey } from './keys.ts';
import { addressKey, TokenBucket } from './limits.ts';
import {
  type ClientMessage,
  clientMessageText,
  type BetRefusalCode,
  type KeyRefusalCode,
  MAX_SEATS,
  MESSAGE_RATE,
  parseClientMessage,
  type ServerMessage,
  serverMessageText,
  type SharedTablePublicState,
  type SharedTableSeat,
} from '../shared/wire/shared-table-socket.ts';
import { MAX_SOCKETS, MAX_SOCKETS_PER_PLAYER, parseTableId, RETRY_MS, type TableConfig } from './shared-protocol.ts';
import { type BetRow, SharedStore, type TransferRow } from './shared-store.ts';
import { RETRY_LATER, type Transfer, type TransferOutcome } from './shared-wallet.ts';

/** Reshuffle tables reveal their server seed and commit a new one after this many closed rounds. */
export const RESHUFFLE_ROUND_LIMIT = 100;
/** Up to this many connections, every accepted bet is broadcast as it comes; beyond, the close lists them. */
export const LIVE_BETS_MAX_SOCKETS = 50;
/** A seat with no bet for this many betting windows is idle: on a full table it gives way to a newcomer. */
export const IDLE_ROUNDS = 3;
/** Transfers asked per alarm (or after a deal or a void), at most (the rest on the next one). */
const RETRY_BATCH = 2_000;
/** Transfers in flight at once: each is an RPC to a player's session object. */
const TRANSFER_CONCURRENCY = 64;

type Phase = 'idle' | 'betting' | 'awaiting-beacon';

interface ShoeState {
  number: number;
  params: SharedParams;
  serverSeed: string;
  /** Set by the start record, at the shoe's first close. */
  clientSeed: string | null;
  cut: number | null;
  deal: SharedShoeState | null;
  /** Rounds closed in this shoe (dealt or voided): the open round is closed + 1. */
  closed: number;
}

interface TableState {
  config: TableConfig;
  phase: Phase;
  closesAt: number | null;
  beaconRound: number | null;
  shoe: ShoeState;
}

interface Attachment {
  session: string;
  /** The client address it came from (CF-Connecting-IP), and when its session last bet (or arrived), Unix ms. */
  address: string;
  active: number;
}

/** A seated session: its address, its last activity, its sockets. */
interface Seat {
  address: string;
  active: number;
  sockets: WebSocket[];
}

/** A socket's attachment (sockets accepted before addresses were kept count as one unknown address, active since 0). */
function attachment(ws: WebSocket): Attachment {
  const a = ws.deserializeAttachment() as Partial<Attachment> | null;
  return { session: a?.session ?? '', address: a?.address ?? '', active: a?.active ?? 0 };
}

export interface SharedBooks {
  tableId: string;
  shoe: number;
  round: number;
  phase: Phase;
  /** Per session: what the table has taken and given back (applied transfers), and how many are still pending. */
  sessions: Record<string, { debited: number; credited: number; refunded: number; pending: number }>;
  /** Stakes taken minus everything paid back: the house's result at this table. */
  houseNet: number;
  pending: number;
}

export class SharedTable extends DurableObject<Env> {
  readonly #store: SharedStore;
  #state: TableState | null;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #buckets = new WeakMap<WebSocket, TokenBucket>();
  /** Transfer ids being asked of their session right now. */
  readonly #inFlight = new Set<string>();
  /** Tests play a late or failing beacon relay through this. */
  beaconFetch: Fetcher | undefined;
  /** Seats of this table (MAX_SEATS; tests fill a smaller table). */
  seatCap = MAX_SEATS;
  /** How long a seat goes without a bet before it is idle; null: IDLE_ROUNDS betting windows (tests set 0). */
  idleMs: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new SharedStore(ctx.storage.sql);
    this.#state = this.#store.state<TableState>();
    // Keep-alive pings are answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(clientMessageText({ type: 'ping' }), serverMessageText({ type: 'pong' })));
  }

  // ---- HTTP (from the Worker: shared-routes.ts has checked the table id and the player's token) ----

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const config = parseTableId(url.searchParams.get('room') ?? '', url.searchParams.get('name') ?? '', sharedTiming(this.env).windowMs);
    if (!config) return Response.json({ error: { code: 'not_found', message: 'no such table' } }, { status: 404 });
    const seating = url.pathname.endsWith('/ws');
    // A table comes into being by configuration or with its first seated player (the Worker checked the session), never by a read.
    if (!this.#state && !seating && !configuredTables(this.env).has(config.tableId)) {
      return Response.json(
        { error: { code: 'not_found', message: `nobody has sat at table ${config.tableId} yet: a table opens with its first seated player` } },
        { status: 404 },
      );
    }
    const state = await this.#ensure(config);
    if (seating) return this.#connect(request, state);
    if (url.pathname.endsWith('/transcript')) {
      const raw = url.searchParams.get('shoe');
      const shoe = raw === null ? null : Number(raw);
      if (shoe !== null && (shoe < 1 || shoe > state.shoe.number)) {
        return Response.json({ error: { code: 'not_found', message: `there is no shoe ${raw} at this table` } }, { status: 404 });
      }
      return Response.json({ version: 'pb-shared-1', records: this.#store.records(shoe).map((r) => r.record) });
    }
    await this.#schedule(); // re-arms whatever a restart may have left unarmed
    return Response.json(this.#publicState(state));
  }

  #connect(request: Request, state: TableState): Response {
    const session = request.headers.get('X-Player-Session') ?? '';
    const balance = Number(request.headers.get('X-Player-Balance') ?? '0');
    // An IPv6 address counts by its /64, as the rate limits count it.
    const address = addressKey(request.headers.get('CF-Connecting-IP') ?? 'unknown');
    const mine = this.ctx.getWebSockets(session);
    if (mine.length === 0) {
      // A new seat: within the address's share, and on a full table only in place of an idle seat.
      const seats = this.#seats();
      const fromAddress = [...seats.values()].filter((seat) => seat.address === address).length;
      const cap = seatsPerAddress(this.env);
      if (fromAddress >= cap) {
        return Response.json(
          { error: { code: 'too_many_seats', message: `${cap} sessions from your address sit at this table already: leave one, or try another table` } },
          { status: 429 },
        );
      }
      if (seats.size >= this.seatCap && !this.#releaseIdleSeat(seats, state)) {
        return Response.json(
          { error: { code: 'table_full', message: `this table seats ${this.seatCap} players, none of them idle: try another table` } },
          { status: 503 },
        );
      }
    }
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS) {
      return Response.json({ error: { code: 'table_full', message: `this table holds ${MAX_SOCKETS} connections: try another table` } }, { status: 503 });
    }
    // A player's oldest tabs give way beyond the bound: a reconnect is never locked out.
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_SOCKETS_PER_PLAYER + 1))) old.close(4000, 'replaced by a newer connection');
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [session]);
    const now = this.#now();
    pair[1].serializeAttachment({ session, address, active: Math.max(now, ...mine.map((w) => attachment(w).active)) } satisfies Attachment);
    pair[1].send(serverMessageText({ type: 'state', ...this.#publicState(state), you: this.#you(state, session, balance) }));
    this.#exclusive(async () => {
      if (this.#state!.phase === 'idle') await this.#openWindow(this.#now());
      else await this.#schedule();
    }).catch(logFault);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // ---- WebSocket messages (Hibernation API) ------------------------------------------------------

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = attachment(ws);
    if (!who.session || !this.#state) return;
    let bucket = this.#buckets.get(ws);
    if (!bucket) this.#buckets.set(ws, (bucket = new TokenBucket(MESSAGE_RATE, Date.now())));
    const taken = bucket.take(Date.now());
    if (!taken.ok) return send(ws, { type: 'error', code: 'rate_limited', message: `too many messages: retry in ${Math.ceil(taken.retryAfter)} s` });
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return send(ws, { type: 'error', code: parsed.code, message: parsed.message });
    try {
      await this.#onMessage(ws, who, parsed.value);
    } catch (err) {
      logFault(err);
      send(ws, { type: 'error', code: 'internal', message: 'the table could not handle this message; it has been logged' });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // A player who leaves is still settled: their bets stay in the round.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, 'bye');
    } catch {
      // already closed
    }
  }

  override async webSocketError(): Promise<void> {
    // The socket is gone; the round goes on without it.
  }

  async #onMessage(ws: WebSocket, who: Attachment, m: ClientMessage): Promise<void> {
    const state = this.#state!;
    switch (m.type) {
      case 'ping':
        return send(ws, { type: 'pong' });
      case 'state':
        return send(ws, { type: 'state', ...this.#publicState(state), you: this.#you(state, who.session, null) });
      case 'start':
        return this.#start(ws, who, m.request);
      case 'bet':
        return this.#bet(ws, who, m.request);
    }
  }

  /** A seated player's start request (client seed and cut) for the shoe not yet started. */
  async #start(ws: WebSocket, who: Attachment, raw: unknown): Promise<void> {
    const checked = await validateSharedRequest(raw, 'start');
    if (!checked.ok) return send(ws, { type: 'start-refused', code: checked.error.code, message: checked.error.message });
    const r = checked.value.body;
    const s = this.#state!;
    const commitment = this.#store.record(s.shoe.number, 'commitment')!.record;
    const mismatch = {
      type: 'start-refused',
      code: 'request_mismatch',
      message: `the start request must answer the commitment of shoe ${s.shoe.number}, not started yet`,
    } as const;
    if (s.shoe.clientSeed !== null) return send(ws, mismatch);
    // The verifier's own rules for a start request (seed, cut, commitment): nothing it would refuse is ever signed.
    const rules = checkSharedStartRequest(commitment, r);
    if (!rules.ok)
      return send(ws, rules.error.code === 'request_mismatch' ? mismatch : { type: 'start-refused', code: rules.error.code, message: rules.error.message });
    const key = this.#bindKey(r.player, who.session);
    if (key) return send(ws, { type: 'start-refused', ...key });
    // One start request per session and shoe: the start record grows with the seats, never with what one sends.
    if (this.#store.hasStart(s.shoe.number, who.session))
      return send(ws, { type: 'start-refused', code: 'already_started', message: `your start request for shoe ${s.shoe.number} is in already: one per shoe` });
    this.#store.setStart(s.shoe.number, r.player, who.session, checked.value);
    send(ws, { type: 'start-ack', shoe: s.shoe.number, player: r.player });
  }

  /** A bet request: checked, written with its pending debit, then the debit is asked of the player's session. */
  async #bet(ws: WebSocket, who: Attachment, raw: unknown): Promise<void> {
    const s = this.#state!;
    const shoe = s.shoe.number;
    const round = s.shoe.closed + 1;
    const refuse = (code: BetRefusalCode, message: string) => send(ws, { type: 'bet-refused', code, message });
    const checked = await validateSharedBet(raw, {
      table: s.config.tableId,
      shoe,
      round,
      limits: ROOMS[s.config.room].limits,
      balance: Number.MAX_SAFE_INTEGER,
    });
    if (!checked.ok) {
      // A copy of a bet already taken (a resend after a reconnect) is acknowledged again, whatever the round now is.
      const again = this.#knownBet(raw);
      if (again) return this.#answerKnown(ws, again);
      if (checked.error.code === 'request_mismatch') return refuse('betting_closed', `betting is open for round ${round} of shoe ${shoe} only`);
      return refuse(checked.error.code, checked.error.message);
    }
    const req = checked.value;
    const player = req.body.player;
    const known = this.#store.bet(shoe, round, player);
    if (known) {
      if (known.request.signature !== req.signature) return refuse('already_bet', 'you have bets in this round already: one bet request per round');
      return this.#answerKnown(ws, known);
    }
    if (s.phase !== 'betting' || this.#now() >= (s.closesAt ?? 0)) return refuse('betting_closed', `betting is closed for round ${round}`);
    if (s.shoe.clientSeed === null && !this.#store.hasStart(shoe, who.session)) {
      return refuse('start_required', `shoe ${shoe} starts at this close: send your start request (client seed and cut) before your first bet`);
    }
    const bound = this.#bindKey(player, who.session);
    if (bound) return refuse(bound.code, bound.message);
    if (this.#store.bettors(shoe, round) >= MAX_SEATS)
      return refuse('round_full', `a round takes the bets of ${MAX_SEATS} players at most: bet in the next one`);
    this.#touch(who.session);
    const stake = totalStake(req.body.bets);
    const id = sharedTransferId(s.config.tableId, shoe, round, player, 'debit');
    this.ctx.storage.transactionSync(() => {
      this.#store.insertBet({ shoe, round, player, session: who.session, request: req, stake, balanceBefore: null, status: 'debiting' });
      this.#store.insertTransfer({ id, session: who.session, shoe, round, kind: 'debit', amount: stake });
    });
    await this.#runTransfer(this.#store.transfer(id)!, player);
  }

  /** Binds the request's key to the session: null when it may use it, else the refusal (one key per session, a key per session). */
  #bindKey(player: string, session: string): { code: KeyRefusalCode; message: string } | null {
    const bound = this.#store.bindKey(player, session);
    if (bound === 'taken') return { code: 'player_key_taken', message: "this key is another session's at this table" };
    if (bound === 'second_key')
      return { code: 'one_key_per_session', message: 'your session sits at this table with another key: one key per session, whatever keys it holds' };
    return null;
  }

  /** The stored bet a resent request is an exact copy of, if any. */
  #knownBet(raw: unknown): BetRow | null {
    const r = raw as Partial<SignedSharedRequest<SharedBetRequest>> | null;
    const b = r?.body;
    if (!b || typeof b.shoe !== 'number' || typeof b.round !== 'number' || typeof b.player !== 'string') return null;
    const known = this.#store.bet(b.shoe, b.round, b.player);
    if (!known || known.request.signature !== r.signature) return null;
    try {
      return canonicalJson(known.request.body) === canonicalJson(b) ? known : null;
    } catch {
      return null;
    }
  }

  #answerKnown(ws: WebSocket, known: BetRow): void {
    const base = { shoe: known.shoe, round: known.round, player: known.player, duplicate: true } as const;
    if (known.status === 'debiting') return send(ws, { type: 'bet-pending', ...base, message: 'this bet is being taken: its ack follows' });
    if (known.status === 'accepted') return send(ws, { type: 'bet-ack', ...base, stake: known.stake });
    send(ws, {
      type: 'bet-refused',
      ...base,
      code: known.status === 'refused' ? 'insufficient_funds' : 'betting_closed',
      message: 'this bet was not taken',
    });
  }

  // ---- the alarm: the round loop --------------------------------------------------------------------

  override async alarm(): Promise<void> {
    await this.#exclusive(async () => {
      if (!this.#state) return;
      await this.#retryTransfers();
      const now = this.#now();
      const s = this.#state;
      if (s.phase === 'betting' && now >= (s.closesAt ?? 0)) await this.#close(now);
      else if (s.phase === 'awaiting-beacon') await this.#awaitBeacon(now);
      await this.#schedule();
    });
  }

  /** Opens the next betting window, or sleeps when nobody is there. */
  async #openWindow(now: number): Promise<void> {
    const s = this.#state!;
    if (s.phase !== 'idle' || this.ctx.getWebSockets().length === 0) return;
    this.#save({ ...s, phase: 'betting', closesAt: now + s.config.windowMs, beaconRound: null });
    this.#announceWindow();
    await this.#schedule();
  }

  async #close(now: number): Promise<void> {
    const s = this.#state!;
    const round = s.shoe.closed + 1;
    const accepted = this.#store.bets(s.shoe.number, round, 'accepted');
    if (accepted.length === 0) {
      // No round is dealt without bets: the window opens again while someone is there.
      const open = this.ctx.getWebSockets().length > 0;
      this.#save({ ...s, phase: open ? 'betting' : 'idle', closesAt: open ? now + s.config.windowMs : null });
      this.#announceWindow();
      return;
    }
    const key = await signingKey(this.env);
    const source = await this.#beaconSource();
    const issuedAt = new Date(now).toISOString();
    let shoe = s.shoe;
    let last = this.#store.last()!.record;
    const records: SignedShared[] = [];
    let startRecord: SignedShared<SharedStart> | null = null;
    if (shoe.clientSeed === null) {
      // The start: the signed start requests of every bettor of this round and of the players seated now, MAX_SEATS at most.
      const seated = new Set([...accepted.map((b) => b.session), ...this.#seatedSessions()].slice(0, MAX_SEATS));
      const commitment = this.#store.record(shoe.number, 'commitment')!.record;
      // Stored requests were checked on arrival; one stored by an older version that breaks a rule is left out, never signed.
      const starts = this.#store.starts(shoe.number, seated).filter((r) => checkSharedStartRequest(commitment, r.body).ok);
      const built = buildSharedStart(commitment, starts, key.keyId, issuedAt);
      if (!built.ok) throw new Error(`${s.config.tableId}: the start cannot be built: ${built.error.message}`);
      const start = await signSharedRecord(built.value, key);
      const inputs = sharedStartInputs(start.body, shoe.params.decks);
      shoe = { ...shoe, clientSeed: inputs.clientSeed, cut: inputs.cut, deal: startSharedShoe(shoe.params, shoe.serverSeed, inputs.clientSeed, inputs.cut) };
      records.push(start);
      startRecord = start;
      last = start;
    }
    const built = buildClose({ last, round, bets: accepted.map((b) => b.request), beacon: source.chain, keyId: key.keyId, issuedAt });
    if (!built.ok) throw new Error(`${s.config.tableId}: the close cannot be built: ${built.error.message}`);
    const close = await signSharedRecord(built.value, key);
    records.push(close);
    this.ctx.storage.transactionSync(() => {
      for (const r of records) this.#store.insertRecord(round, null, r);
      this.#save({ ...s, shoe: { ...shoe, closed: round }, phase: 'awaiting-beacon', closesAt: null, beaconRound: close.body.beaconRound });
    });
    await haltIfAsked(this.env, 'closed');
    this.#broadcast({
      type: 'close',
      shoe: shoe.number,
      round,
      close,
      connections: this.ctx.getWebSockets().length,
      ...(startRecord ? { start: startRecord } : {}),
    });
  }

  async #awaitBeacon(now: number): Promise<void> {
    const s = this.#state!;
    const source = await this.#beaconSource();
    if (now < timeOfRound(source.chain, s.beaconRound!)) return;
    // A test's relay gets a cache of its own: the isolate's may already hold the round.
    const got = await fetchBeacon(source, s.beaconRound!, this.beaconFetch ? { fetch: this.beaconFetch, cache: new VerifiedRounds() } : {});
    if (got.ok) return this.#deal(source.chain, got.value);
    if (this.#now() >= voidNotBefore(source.chain, s.shoe.params, s.beaconRound!)) return this.#void(source.chain);
    console.warn(`punto-banco: ${s.config.tableId} shoe ${s.shoe.number} round ${s.shoe.closed}: ${got.error.message} (asking again)`);
  }

  async #deal(chain: BeaconChain, beacon: BeaconRound): Promise<void> {
    const s = this.#state!;
    const shoe = s.shoe;
    const round = shoe.closed;
    const key = await signingKey(this.env);
    const issuedAt = new Date(this.#now()).toISOString();
    const close = this.#store.record(shoe.number, 'close', round)!.record;
    const accepted = this.#store.bets(shoe.number, round, 'accepted');
    const built = buildSharedDeal({
      params: shoe.params,
      state: shoe.deal!,
      serverSeed: shoe.serverSeed,
      cut: shoe.cut!,
      chain,
      close,
      beacon,
      keyId: key.keyId,
      issuedAt,
    });
    if (!built.ok) throw new Error(`${s.config.tableId}: the deal cannot be built: ${built.error.message}`);
    const deal = await signSharedRecord(built.value.body, key);
    const bySession = new Map(accepted.map((b) => [b.player, b]));
    const balances = new Map(accepted.map((b) => [b.player, b.balanceBefore!]));
    const settlements = await signSharedSettlements({ deal, close, balances, key, issuedAt });
    const after = { ...shoe, deal: built.value.state };
    const ending = await this.#revealIfDue(s, after, deal.body, settlements.at(-1) ?? deal, key.keyId, issuedAt);
    this.ctx.storage.transactionSync(() => {
      this.#store.insertRecord(round, null, deal);
      for (const x of settlements) {
        const bet = bySession.get(x.body.player)!;
        this.#store.insertRecord(round, x.body.player, x);
        if (x.body.returned > 0) {
          this.#store.insertTransfer({
            id: sharedTransferId(s.config.tableId, shoe.number, round, x.body.player, 'credit'),
            session: bet.session,
            shoe: shoe.number,
            round,
            kind: 'credit',
            amount: x.body.returned,
          });
        }
      }
      if (ending) for (const r of ending.records) this.#store.insertRecord(round, null, r);
      this.#nextRound({ ...s, shoe: ending ? ending.next : after });
    });
    await haltIfAsked(this.env, ending ? 'revealed' : 'dealt');
    this.#broadcast({ type: 'deal', shoe: shoe.number, round, deal });
    for (const x of settlements) this.#toSession(bySession.get(x.body.player)!.session, { type: 'settlement', shoe: shoe.number, round, settlement: x });
    if (ending) this.#broadcast({ type: 'reveal', shoe: shoe.number, reveal: ending.reveal, commitment: ending.commitment });
    this.#announceWindow();
    await this.#retryTransfers();
  }

  /** The round voids (its beacon is late past the committed deadline): every stake goes back by its own refund transfer. */
  async #void(chain: BeaconChain): Promise<void> {
    const s = this.#state!;
    const shoe = s.shoe;
    const round = shoe.closed;
    const key = await signingKey(this.env);
    const issuedAt = new Date(this.#now()).toISOString();
    const close = this.#store.record(shoe.number, 'close', round)!.record;
    const accepted = this.#store.bets(shoe.number, round, 'accepted');
    const built = buildSharedVoid({ close, chain, params: shoe.params, keyId: key.keyId, issuedAt });
    if (!built.ok) throw new Error(`${s.config.tableId}: the void cannot be built: ${built.error.message}`);
    const voided = await signSharedRecord(built.value, key);
    const ending = await this.#revealIfDue(s, shoe, null, voided, key.keyId, issuedAt);
    this.ctx.storage.transactionSync(() => {
      this.#store.insertRecord(round, null, voided);
      for (const b of accepted) {
        this.#store.insertTransfer({
          id: sharedTransferId(s.config.tableId, shoe.number, round, b.player, 'refund'),
          session: b.session,
          shoe: shoe.number,
          round,
          kind: 'refund',
          amount: b.stake,
        });
      }
      if (ending) for (const r of ending.records) this.#store.insertRecord(round, null, r);
      this.#nextRound({ ...s, shoe: ending ? ending.next : shoe });
    });
    await haltIfAsked(this.env, ending ? 'revealed' : 'voided');
    this.#broadcast({ type: 'void', shoe: shoe.number, round, void: voided, refunds: accepted.map((b) => ({ player: b.player, returned: b.stake })) });
    if (ending) this.#broadcast({ type: 'reveal', shoe: shoe.number, reveal: ending.reveal, commitment: ending.commitment });
    this.#announceWindow();
    await this.#retryTransfers();
  }

  /** The reveal the rules force after this round, and the next shoe's commitment chained to it. */
  async #revealIfDue(s: TableState, shoe: ShoeState, deal: SharedDeal | null, last: SignedShared, keyId: string, issuedAt: string) {
    const reason = sharedRevealDue(shoe.params, { cutCardOut: deal?.cutCardOut ?? false, closed: shoe.closed });
    if (reason === null) return null;
    const key = await signingKey(this.env);
    const reveal = await signSharedRecord(buildSharedReveal({ last, serverSeed: shoe.serverSeed, rounds: shoe.closed, reason, keyId, issuedAt }), key);
    const next = await this.#commitShoe(s.config, shoe.number + 1, reveal.hash, Date.parse(issuedAt));
    return { reveal, commitment: next.commitment, records: [reveal, next.commitment] as SignedShared[], next: next.shoe };
  }

  /** After a round: the next window when someone is connected, else sleep. (Inside the step's transaction.) */
  #nextRound(s: TableState): void {
    const open = this.ctx.getWebSockets().length > 0;
    this.#save({ ...s, phase: open ? 'betting' : 'idle', closesAt: open ? this.#now() + s.config.windowMs : null, beaconRound: null });
  }

  #announceWindow(): void {
    const s = this.#state!;
    if (s.phase === 'betting')
      this.#broadcast({
        type: 'open',
        shoe: s.shoe.number,
        round: s.shoe.closed + 1,
        closesAt: new Date(s.closesAt!).toISOString(),
        // Who is at the table, once a window (a message to all on every join would grow with the square of the players).
        connections: this.ctx.getWebSockets().length,
      });
  }

  async #commitShoe(
    config: TableConfig,
    number: number,
    prev: string | null,
    now: number,
  ): Promise<{ shoe: ShoeState; commitment: SignedShared<SharedCommitment> }> {
    const source = await this.#beaconSource();
    const beaconDeadlineSeconds = Math.min(DEFAULT_BEACON_DEADLINE_SECONDS, Math.max(1, Math.ceil(sharedTiming(this.env).beaconLateMs / 1000)));
    // The cut card in the middle of the stack (rule text 000), as at a private table: a committed parameter, so shoes committed before with another place stay verifiable.
    const { decks, burn, cutCardFromEnd } = defaultShoeRules('shoe', DEFAULT_SHOE_PARAMS.decks);
    const params: SharedParams =
      config.mode === 'shoe'
        ? { algorithm: 'pb-shared-1', mode: 'shoe', decks, burn, cutCardFromEnd, beaconDeadlineSeconds }
        : { algorithm: 'pb-shared-1', mode: 'reshuffle', decks, roundLimit: reshuffleRoundLimit(this.env), beaconDeadlineSeconds };
    const serverSeed = newServerSeed((n) => crypto.getRandomValues(new Uint8Array(n)));
    const key = await signingKey(this.env);
    const body = buildSharedCommitment({
      table: config.tableId,
      shoe: number,
      keyId: key.keyId,
      params,
      limits: ROOMS[config.room].limits,
      beacon: source.chain,
      serverSeed,
      prev,
      issuedAt: new Date(now).toISOString(),
    });
    const commitment = await signSharedRecord(body, key);
    return { shoe: { number, params, serverSeed, clientSeed: null, cut: null, deal: null, closed: 0 }, commitment };
  }

  /** Sets the alarm the state needs, or none: a sleeping table holds no alarm. */
  async #schedule(): Promise<void> {
    const s = this.#state;
    if (!s) return;
    const now = this.#now();
    const times: number[] = [];
    if (s.phase === 'betting') times.push(s.closesAt!);
    if (s.phase === 'awaiting-beacon') {
      const source = await this.#beaconSource();
      times.push(Math.max(now + 50, Math.min(timeOfRound(source.chain, s.beaconRound!), now + RETRY_MS)));
    }
    if (this.#store.hasPendingTransfers()) times.push(now + RETRY_MS);
    if (times.length === 0) return this.ctx.storage.deleteAlarm();
    const want = Math.min(...times);
    // Never postpone an alarm already due sooner: a client polling the state would keep pushing it away.
    const set = await this.ctx.storage.getAlarm();
    if (set === null || set > want || set < now - RETRY_MS) await this.ctx.storage.setAlarm(want);
  }

  // ---- money: exactly-once transfers with the players' sessions --------------------------------------

  async #retryTransfers(): Promise<void> {
    // Every pending one is asked once here, at most TRANSFER_CONCURRENCY at a time: a round's
    // 1,000 credits go out at once instead of a batch per alarm, without 1,000 RPCs in flight.
    const pending = this.#store.pendingTransfers(RETRY_BATCH);
    let next = 0;
    const worker = async () => {
      while (next < pending.length) await this.#runTransfer(pending[next++]!, null);
    };
    await Promise.all(Array.from({ length: Math.min(TRANSFER_CONCURRENCY, pending.length) }, worker));
  }

  /**
   * Asks the session to apply `t` (idempotent on its side: the same id is applied once) and
   * records its answer; a fault leaves it pending for the next alarm. `player`: the bet's key, for a debit.
   */
  async #runTransfer(t: TransferRow, player: string | null): Promise<void> {
    // One ask of an id at a time: while a bet's first ask is out, the alarm does not ask it too.
    if (this.#inFlight.has(t.id)) return;
    this.#inFlight.add(t.id);
    try {
      await this.#askTransfer(t, player);
    } finally {
      this.#inFlight.delete(t.id);
    }
  }

  async #askTransfer(t: TransferRow, player: string | null): Promise<void> {
    const s = this.#state!;
    const ask: Transfer = { id: t.id, table: s.config.tableId, shoe: t.shoe, round: t.round, kind: t.kind, amount: t.amount };
    let outcome: TransferOutcome;
    try {
      outcome = await this.env.TABLES.getByName(t.session).sharedTransfer(ask);
    } catch (err) {
      console.warn(`punto-banco: ${s.config.tableId}: transfer ${t.id} (${t.kind} ${t.amount}) is pending, retried on the next alarm:`, (err as Error).message);
      await this.#schedule();
      return;
    }
    if (!outcome.ok && RETRY_LATER.has(outcome.code)) {
      if (player !== null && t.kind === 'debit') {
        // A bet's first ask, answered busy (a private round of the session awaits its settlement): the
        // session recorded nothing, and this id was never asked before nor meanwhile (#inFlight), so the
        // bet is refused now, not held until the private round settles.
        this.ctx.storage.transactionSync(() => {
          this.#store.setTransferStatus(t.id, 'refused');
          this.#store.setBetStatus({ shoe: t.shoe, round: t.round, player }, 'refused');
        });
        this.#toSession(t.session, {
          type: 'bet-refused',
          shoe: t.shoe,
          round: t.round,
          player,
          code: outcome.code,
          message: 'your session has a private round awaiting its settlement: finish it, then bet here from the next round',
        });
        return;
      }
      await this.#schedule();
      return;
    }
    await haltIfAsked(this.env, `${t.kind}-applied`);
    const bet =
      t.kind === 'debit'
        ? player
          ? this.#store.bet(t.shoe, t.round, player)
          : this.#store.sessionBets(t.shoe, t.round, t.session).find((b) => sharedTransferId(s.config.tableId, b.shoe, b.round, b.player, 'debit') === t.id)
        : null;
    let late = false;
    const recorded = this.ctx.storage.transactionSync(() => {
      const current = this.#store.transfer(t.id);
      if (!current || current.status !== 'pending') return false;
      this.#store.setTransferStatus(t.id, outcome.ok ? 'applied' : 'refused');
      if (!bet || bet.status !== 'debiting') return true;
      const st = this.#state!;
      const open = st.phase === 'betting' && st.shoe.number === t.shoe && st.shoe.closed + 1 === t.round && this.#now() < (st.closesAt ?? 0);
      if (!outcome.ok) this.#store.setBetStatus(bet, 'refused');
      else if (open) this.#store.setBetStatus(bet, 'accepted', outcome.balance + t.amount);
      else {
        // Debited after the close: the bet is not in the round, its stake goes straight back.
        late = true;
        this.#store.setBetStatus(bet, 'late');
        this.#store.insertTransfer({
          id: sharedTransferId(st.config.tableId, t.shoe, t.round, bet.player, 'refund'),
          session: t.session,
          shoe: t.shoe,
          round: t.round,
          kind: 'refund',
          amount: t.amount,
        });
      }
      return true;
    });
    if (!recorded) return;
    const balance = outcome.balance;
    if (bet) {
      const base = { shoe: t.shoe, round: t.round, player: bet.player };
      const now = this.#store.bet(bet.shoe, bet.round, bet.player)!;
      if (now.status === 'accepted') {
        this.#toSession(t.session, { type: 'bet-ack', ...base, stake: now.stake, balance });
        // Each bet to everyone is N² messages a round: only small tables get them live (all see the close).
        if (this.ctx.getWebSockets().length <= LIVE_BETS_MAX_SOCKETS) this.#broadcast({ type: 'bet', ...base, stake: now.stake, bets: now.request.body.bets });
      } else if (now.status === 'refused') {
        this.#toSession(t.session, {
          type: 'bet-refused',
          ...base,
          code: outcome.ok ? 'refused' : outcome.code,
          message: outcome.ok ? '' : outcome.message,
          balance,
        });
      } else if (late) {
        this.#toSession(t.session, {
          type: 'bet-refused',
          ...base,
          code: 'betting_closed',
          message: 'betting closed before your stake was taken: it is returned',
        });
        await this.#schedule();
      }
    } else if (outcome.ok) {
      this.#toSession(t.session, { type: 'balance', balance: outcome.balance, transfer: t.id, kind: t.kind, shoe: t.shoe, round: t.round });
    }
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** The table's books: every transfer by session (tests and audits compare them with the sessions'). */
  async books(): Promise<SharedBooks | null> {
    const s = this.#state;
    if (!s) return null;
    const sessions: SharedBooks['sessions'] = {};
    let houseNet = 0;
    let pending = 0;
    for (const t of this.#store.transfers()) {
      const p = (sessions[t.session] ??= { debited: 0, credited: 0, refunded: 0, pending: 0 });
      if (t.status === 'pending') {
        p.pending++;
        pending++;
      } else if (t.status === 'applied') {
        const sign = t.kind === 'debit' ? 1 : -1;
        houseNet += sign * t.amount;
        if (t.kind === 'debit') p.debited += t.amount;
        else if (t.kind === 'credit') p.credited += t.amount;
        else p.refunded += t.amount;
      }
    }
    return {
      tableId: s.config.tableId,
      shoe: s.shoe.number,
      round: s.shoe.closed + (s.phase === 'awaiting-beacon' ? 0 : 1),
      phase: s.phase,
      sessions,
      houseNet,
      pending,
    };
  }

  /** The alarm's time, or null (tests: a table with no activity holds none). */
  async alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  #publicState(s: TableState): SharedTablePublicState {
    const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
    const commitment = this.#store.record(s.shoe.number, 'commitment')!.record;
    const start = this.#store.record(s.shoe.number, 'start')?.record ?? null;
    const lastDeal = this.#store.record(s.shoe.number, 'deal')?.record ?? null;
    return {
      tableId: s.config.tableId,
      room: s.config.room,
      mode: s.config.mode,
      speed: s.config.speed,
      windowMs: s.config.windowMs,
      limits: ROOMS[s.config.room].limits,
      shoe: {
        number: s.shoe.number,
        params: s.shoe.params,
        commitment,
        start,
        closed: s.shoe.closed,
        cardsDealt: s.shoe.deal?.dealt ?? 0,
        cardsLeft: s.shoe.deal && s.shoe.params.mode === 'shoe' ? s.shoe.deal.remaining.length : null,
      },
      round,
      phase: s.phase,
      closesAt: s.closesAt === null ? null : new Date(s.closesAt).toISOString(),
      beaconRound: s.beaconRound,
      close: s.phase === 'awaiting-beacon' ? (this.#store.record(s.shoe.number, 'close', round)?.record ?? null) : null,
      bets:
        s.phase === 'idle'
          ? []
          : this.#store.bets(s.shoe.number, round, 'accepted').map((b) => ({ player: b.player, stake: b.stake, bets: b.request.body.bets })),
      lastDeal,
      outcomes: this.#store.recordsOf(s.shoe.number, 'deal').map((r) => outcomeCode(r.record.body)),
      connections: this.ctx.getWebSockets().length,
    };
  }

  #you(s: TableState, session: string, balance: number | null): SharedTableSeat {
    const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
    const bets = this.#store.sessionBets(s.shoe.number, round, session).filter((b) => b.status !== 'refused');
    return {
      ...(balance === null ? {} : { balance }),
      started: this.#store.hasStart(s.shoe.number, session),
      bets: bets.map((b) => ({ player: b.player, request: b.request, stake: b.stake, status: b.status })),
    };
  }

  // ---- internals ------------------------------------------------------------------------------------

  async #ensure(config: TableConfig): Promise<TableState> {
    if (this.#state) return this.#state;
    return this.#exclusive(async () => {
      if (this.#state) return this.#state;
      const { shoe, commitment } = await this.#commitShoe(config, 1, null, this.#now());
      const state: TableState = { config, phase: 'idle', closesAt: null, beaconRound: null, shoe };
      this.ctx.storage.transactionSync(() => {
        this.#store.insertRecord(0, null, commitment);
        this.#save(state);
      });
      return state;
    });
  }

  #save(state: TableState): void {
    this.#store.saveState(state);
    this.#state = state;
  }

  async #beaconSource(): Promise<BeaconSource> {
    const source = await beaconSource(this.env);
    if (!source.ok) throw new Error(`the beacon is misconfigured: ${source.error.message}`);
    return source.value;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** The sessions with a socket at the table, in order of their oldest socket. */
  #seatedSessions(): string[] {
    return [...this.#seats().keys()];
  }

  /** Each seated session: its address and its last activity (a bet, or its arrival), over its sockets. */
  #seats(): Map<string, Seat> {
    const seats = new Map<string, Seat>();
    for (const ws of this.ctx.getWebSockets()) {
      const a = attachment(ws);
      const seat = seats.get(a.session);
      if (seat) {
        seat.active = Math.max(seat.active, a.active);
        seat.sockets.push(ws);
      } else seats.set(a.session, { address: a.address, active: a.active, sockets: [ws] });
    }
    return seats;
  }

  /**
   * On a full table, the seat idle the longest gives way: no bet for IDLE_ROUNDS betting windows
   * and none in the open round. Its sockets are closed (4001); it may come back when a seat is free.
   */
  #releaseIdleSeat(seats: Map<string, Seat>, s: TableState): boolean {
    const idleSince = this.#now() - (this.idleMs ?? IDLE_ROUNDS * s.config.windowMs);
    const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
    let oldest: [string, Seat] | null = null;
    for (const entry of seats) {
      if (entry[1].active >= idleSince || this.#store.sessionBets(s.shoe.number, round, entry[0]).length > 0) continue;
      if (!oldest || entry[1].active < oldest[1].active) oldest = entry;
    }
    if (!oldest) return false;
    for (const ws of oldest[1].sockets) {
      try {
        ws.close(4001, 'seat released: idle at a full table');
      } catch {
        // already closing
      }
    }
    return true;
  }

  /** A bet is activity: the session's seat is not idle. */
  #touch(session: string): void {
    const now = this.#now();
    for (const ws of this.ctx.getWebSockets(session)) ws.serializeAttachment({ ...attachment(ws), active: now } satisfies Attachment);
  }

  #broadcast(m: ServerMessage): void {
    const text = serverMessageText(m);
    for (const ws of this.ctx.getWebSockets()) trySend(ws, text);
  }

  #toSession(session: string, m: ServerMessage): void {
    const text = serverMessageText(m);
    for (const ws of this.ctx.getWebSockets(session)) trySend(ws, text);
  }

  #now(): number {
    return Date.now();
  }
}

/**
 * The steps of a round the crash tests stop at (`SHARED_TEST_HALT`; never set in production): a
 * session applied a transfer the table has not recorded yet (`<kind>-applied`); the close, the deal
 * or the void is stored and nothing of it sent or paid yet; `revealed`: the same for a deal or a void
 * that also ended the shoe (its reveal and the next shoe's commitment stored with it).
 */
export type HaltStep = 'debit-applied' | 'closed' | 'dealt' | 'voided' | 'revealed' | 'credit-applied' | 'refund-applied';

/**
 * The round limit committed for a new reshuffle shoe: RESHUFFLE_ROUND_LIMIT, or in development only
 * (DEV=true) `SHARED_TEST_ROUND_LIMIT`, so that a test reaches a shoe's reveal in a round or two.
 */
export function reshuffleRoundLimit(env: Env): number {
  const asked = Number(env.SHARED_TEST_ROUND_LIMIT ?? '');
  return isDev(env) && Number.isSafeInteger(asked) && asked >= 1 && asked < RESHUFFLE_ROUND_LIMIT ? asked : RESHUFFLE_ROUND_LIMIT;
}

/**
 * Tests only: with `SHARED_TEST_HALT` naming this step, the loop logs that it got there and never
 * goes on (the test kills the server at that point). Unset, nothing happens.
 */
async function haltIfAsked(env: Env, step: HaltStep): Promise<void> {
  // Honoured only in development (DEV=true): a stray setting can never stall a production table.
  if (env.SHARED_TEST_HALT !== step || !isDev(env)) return;
  console.log(`punto-banco: SHARED_TEST_HALT: halted at ${step}`);
  await new Promise(() => {});
}

function send(ws: WebSocket, m: ServerMessage): void {
  trySend(ws, serverMessageText(m));
}

function trySend(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // A socket closing meanwhile: the player resynchronises on reconnect.
  }
}

function logFault(err: unknown): void {
  console.error('punto-banco: shared table fault:', (err as Error)?.stack ?? err);
}
