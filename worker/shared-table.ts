/**
 * `SharedTable`: one Durable Object per shared table (issue 13), addressed by its table id
 * (`hall-1/a`, shared-protocol.ts). Players connect by WebSocket through the Hibernation API
 * (`ctx.acceptWebSocket`): an idle table is evicted from memory and costs nothing; each socket's
 * attachment says whose it is. The table holds the round; each player's money stays in their
 * session object (`Table`), moved only by exactly-once transfers (shared-wallet.ts).
 *
 * The round loop runs on the object's alarm, never on timers:
 *   betting (a window) → close (a signed close record listing every accepted bet, players by
 *   seat pseudonym, naming the first beacon round published after the close) → wait for that
 *   beacon round → deal from the committed shoe and the beacon value, settle per player, sign a
 *   result and one settlement per player, broadcast → the next window.
 * A window that closes with no bets opens again only while someone is connected; with nobody
 * connected and nothing owed, no alarm is left: the table sleeps. A beacon round later than
 * BEACON_LATE_MS past its due time voids the round: every stake goes back by a refund transfer.
 *
 * Crash safety: every step is one `transactionSync` writing its records and the next state
 * together, and each step is re-entered from the stored state by the next alarm (the platform
 * re-runs an alarm that threw; a restart finds the alarm or the next request re-arms it). A
 * transfer is written as pending before the session is asked, and settled when its answer is
 * recorded; pending ones are asked again, with the same id, on every alarm.
 */
import { DurableObject } from 'cloudflare:workers';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type BeaconRound, firstRoundAfter, timeOfRound } from '../shared/beacon.ts';
import {
  cutRange,
  DEFAULT_SHOE_PARAMS,
  FAIRNESS_VERSION,
  newServerSeed,
  ROOMS,
  roundView,
  seedCommitment,
  settle,
  type ShoeParams,
  type Signed,
  signRecord,
  totalStake,
  validateBets,
} from '../shared/index.ts';
import { dealSharedRound, sharedShoe, sharedStartSeed } from '../shared/shared-deal.ts';
import { beaconSource, fetchBeacon, type Fetcher } from './beacon.ts';
import { type Env, sharedTiming } from './env.ts';
import { signingKey } from './keys.ts';
import { TokenBucket } from './limits.ts';
import {
  type ClientMessage,
  MAX_SOCKETS,
  MAX_SOCKETS_PER_PLAYER,
  MESSAGE_RATE,
  outgoing,
  parseClientMessage,
  parseTableId,
  RETRY_MS,
  type TableConfig,
} from './shared-protocol.ts';
import { type BetRow, SharedStore, type TransferKind, type TransferRow } from './shared-store.ts';
import type { Transfer, TransferOutcome } from './shared-wallet.ts';

/** Reshuffle tables reveal their server seed and commit a new one after this many rounds. */
export const RESHUFFLE_ROUNDS_PER_SHOE = 100;
/** Transfers retried per alarm, at most (the rest on the next one). */
const RETRY_BATCH = 500;

type Phase = 'idle' | 'betting' | 'awaiting-beacon';

interface ShoeState {
  number: number;
  params: ShoeParams;
  serverSeed: string;
  commitment: Signed<{ type: string }>;
  /** Set when the first round of the shoe closes. */
  startSeed: string | null;
  cut: number | null;
  /** Shoe mode: the stack as it stands (reshuffled before each round), the next card, the cut card. */
  stack: number[] | null;
  next: number;
  burned: number;
  cutCardAt: number;
  rounds: number;
}

interface TableState {
  config: TableConfig;
  /** Pseudonyms are keyed with this table's own random salt: a seat says nothing about a session id. */
  salt: string;
  round: number;
  phase: Phase;
  closesAt: number | null;
  beaconRound: number | null;
  head: string | null;
  shoe: ShoeState;
  last: { round: number; result: Signed<{ type: string }> } | null;
}

interface Attachment {
  player: string;
  seat: string;
}

export interface SharedBooks {
  tableId: string;
  round: number;
  phase: Phase;
  /** Per player: what the table has taken and given back (applied transfers), and what is still pending. */
  players: Record<string, { debited: number; credited: number; refunded: number; pending: number }>;
  /** Stakes taken minus everything paid back: the house's result at this table. */
  houseNet: number;
  pending: number;
}

export class SharedTable extends DurableObject<Env> {
  readonly #store: SharedStore;
  #state: TableState | null;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #buckets = new WeakMap<WebSocket, TokenBucket>();
  /** Tests play a late or failing beacon relay through this. */
  beaconFetch: Fetcher | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new SharedStore(ctx.storage.sql);
    this.#state = this.#store.state<TableState>();
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"v":1,"type":"ping"}', '{"v":1,"type":"pong"}'));
  }

  // ---- HTTP (from the Worker: worker/index.ts has checked the table id and the player's token) ----

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const config = parseTableId(url.searchParams.get('room') ?? '', url.searchParams.get('name') ?? '', sharedTiming(this.env).windowMs);
    if (!config) return Response.json({ error: { code: 'not_found', message: 'no such table' } }, { status: 404 });
    const state = await this.#ensure(config);
    if (url.pathname.endsWith('/ws')) return this.#connect(request, state);
    if (url.pathname.endsWith('/transcript')) {
      const shoe = Number(url.searchParams.get('shoe') ?? state.shoe.number);
      if (!Number.isSafeInteger(shoe) || shoe < 1 || shoe > state.shoe.number) {
        return Response.json({ error: { code: 'not_found', message: `there is no shoe ${url.searchParams.get('shoe')} at this table` } }, { status: 404 });
      }
      return Response.json({ tableId: state.config.tableId, shoe, records: this.#store.records(shoe).map((r) => r.record) });
    }
    return Response.json(this.#publicState(state));
  }

  #connect(request: Request, state: TableState): Response {
    const player = request.headers.get('X-Player-Session') ?? '';
    const balance = Number(request.headers.get('X-Player-Balance') ?? '0');
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS) {
      return Response.json({ error: { code: 'table_full', message: `this table holds ${MAX_SOCKETS} connections: try another table` } }, { status: 503 });
    }
    const mine = this.ctx.getWebSockets(player);
    // A player's oldest tab gives way beyond the bound (a reconnect must never be locked out).
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_SOCKETS_PER_PLAYER + 1))) old.close(4000, 'replaced by a newer connection');
    const pair = new WebSocketPair();
    const seat = this.#seat(state, player);
    this.ctx.acceptWebSocket(pair[1], [player]);
    pair[1].serializeAttachment({ player, seat } satisfies Attachment);
    pair[1].send(outgoing('state', { ...this.#publicState(state), you: this.#you(state, player, seat, balance) }));
    if (state.phase === 'idle') this.#exclusive(() => this.#openWindow(this.#now())).catch(logFault);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // ---- WebSocket messages (Hibernation API) ------------------------------------------------------

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = ws.deserializeAttachment() as Attachment | null;
    if (!who) return;
    let bucket = this.#buckets.get(ws);
    if (!bucket) this.#buckets.set(ws, (bucket = new TokenBucket(MESSAGE_RATE, Date.now())));
    const taken = bucket.take(Date.now());
    if (!taken.ok) return send(ws, 'error', { code: 'rate_limited', message: `too many messages: retry in ${Math.ceil(taken.retryAfter)} s` });
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return send(ws, 'error', { code: parsed.code, message: parsed.message });
    try {
      await this.#onMessage(ws, who, parsed.value);
    } catch (err) {
      logFault(err);
      send(ws, 'error', { code: 'internal', message: 'the table could not handle this message; it has been logged' });
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
        return send(ws, 'pong', {});
      case 'state':
        return send(ws, 'state', { ...this.#publicState(state), you: this.#you(state, who.player, who.seat, null) });
      case 'seed': {
        const range = cutRange(state.shoe.params);
        if (m.cut !== undefined && (m.cut < range.min || m.cut > range.max)) {
          return send(ws, 'error', { code: 'bad_cut', message: `a cut is between ${range.min} and ${range.max}` });
        }
        this.#store.setSeed(who.player, who.seat, m.clientSeed.normalize('NFC'), m.cut ?? null);
        return send(ws, 'seed-ack', { shoe: state.shoe.startSeed === null ? state.shoe.number : state.shoe.number + 1 });
      }
      case 'bet':
        return this.#bet(who, m);
    }
  }

  /** A bet: checked, written with its pending debit, then the debit is asked of the player's session. */
  async #bet(who: Attachment, m: Extract<ClientMessage, { type: 'bet' }>): Promise<void> {
    const state = this.#state!;
    const reply = (type: string, body: object) => this.#toPlayer(who.player, type, { round: m.round, betId: m.betId, ...body });
    const known = this.#store.bet(m.round, who.player);
    if (known) {
      if (known.betId !== m.betId) return reply('bet-refused', { code: 'already_bet', message: 'you have bets in this round already: one set of bets per round' });
      if (known.status === 'debiting') return reply('bet-pending', { duplicate: true, message: 'this bet is being taken: its ack follows' });
      return known.status === 'accepted'
        ? reply('bet-ack', { seat: who.seat, stake: known.stake, duplicate: true })
        : reply('bet-refused', { code: known.status === 'refused' ? 'insufficient_funds' : 'betting_closed', message: 'this bet was not taken', duplicate: true });
    }
    if (state.phase !== 'betting' || m.round !== state.round || this.#now() >= (state.closesAt ?? 0)) {
      return reply('bet-refused', { code: 'betting_closed', message: `betting is closed for round ${m.round}${state.phase === 'betting' ? `: round ${state.round} is open` : ''}` });
    }
    const checked = validateBets(m.bets, ROOMS[state.config.room].limits);
    if (!checked.ok) return reply('bet-refused', { code: checked.error.code, message: checked.error.message });
    const stake = totalStake(checked.value);
    const id = transferId(state.config.tableId, m.round, who.player, 'debit');
    this.ctx.storage.transactionSync(() => {
      this.#store.insertBet({ round: m.round, player: who.player, seat: who.seat, betId: m.betId, bets: checked.value, stake, status: 'debiting' });
      this.#store.insertTransfer({ id, player: who.player, round: m.round, kind: 'debit', amount: stake });
    });
    await this.#runTransfer(this.#store.transfer(id)!);
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
    if (s.phase !== 'idle') return;
    if (this.ctx.getWebSockets().length === 0) return;
    this.#save({ ...s, phase: 'betting', closesAt: now + s.config.windowMs, beaconRound: null });
    this.#broadcast('open', { round: this.#state!.round, closesAt: new Date(this.#state!.closesAt!).toISOString() });
    await this.#schedule();
  }

  async #close(now: number): Promise<void> {
    const s = this.#state!;
    const accepted = this.#store.bets(s.round, 'accepted');
    if (accepted.length === 0) {
      // No round is dealt without bets: the window opens again while someone is there.
      const next = this.ctx.getWebSockets().length > 0 ? ({ phase: 'betting', closesAt: now + s.config.windowMs } as const) : ({ phase: 'idle', closesAt: null } as const);
      this.#save({ ...s, ...next });
      if (next.phase === 'betting') this.#broadcast('open', { round: s.round, closesAt: new Date(next.closesAt).toISOString() });
      return;
    }
    const key = await signingKey(this.env);
    const source = await this.#beaconSource();
    let shoe = s.shoe;
    let head = s.head;
    const records: Array<Signed<{ type: string }>> = [];
    if (shoe.startSeed === null) {
      const started = await this.#startShoe(s, accepted, head, now);
      shoe = started.shoe;
      head = started.record.hash;
      records.push(started.record);
    }
    const beaconRound = firstRoundAfter(source.chain, now);
    const close = await signRecord(
      {
        type: 'shared-close',
        version: FAIRNESS_VERSION,
        table: s.config.tableId,
        shoe: shoe.number,
        round: s.round,
        closedAt: new Date(now).toISOString(),
        beacon: { chain: source.chain.hash, round: beaconRound, dueAt: new Date(timeOfRound(source.chain, beaconRound)).toISOString(), lateAfterMs: sharedTiming(this.env).beaconLateMs },
        bets: accepted.map((b) => ({ seat: b.seat, bets: b.bets, stake: b.stake })),
        staked: accepted.reduce((n, b) => n + b.stake, 0),
        prev: head,
      },
      key,
    );
    records.push(close);
    this.ctx.storage.transactionSync(() => {
      for (const r of records) this.#store.insertRecord(shoe.number, s.round, null, r);
      this.#save({ ...s, shoe, head: close.hash, phase: 'awaiting-beacon', closesAt: null, beaconRound });
    });
    this.#broadcast('close', { round: s.round, close, ...(records.length > 1 ? { start: records[0] } : {}) });
  }

  /** The shoe's start at its first close: the seated players' client seeds and a seated player's cut. */
  async #startShoe(s: TableState, accepted: BetRow[], prev: string | null, now: number) {
    const seated = [...new Set(this.ctx.getWebSockets().map((w) => (w.deserializeAttachment() as Attachment).player))];
    const offered = this.#store.seeds(seated);
    // With no seed offered, the seats of the bettors stand in (the beacon reshuffles every round anyway).
    const seeds = offered.length > 0 ? offered.map((o) => o.clientSeed) : accepted.map((b) => b.seat);
    const startSeed = sharedStartSeed(seeds);
    const range = cutRange(s.shoe.params);
    const cutter = offered.find((o) => o.cut !== null);
    const cut = cutter ? cutter.cut! : range.min + (parseInt(startSeed.slice(0, 8), 16) % (range.max - range.min + 1));
    const built = sharedShoe(s.shoe.params, s.shoe.serverSeed, startSeed, cut);
    const shoe: ShoeState = { ...s.shoe, startSeed, cut, stack: [...built.cards], next: built.next, burned: built.burned, cutCardAt: built.cutCardAt };
    const record = await signRecord(
      {
        type: 'shared-start',
        version: FAIRNESS_VERSION,
        table: s.config.tableId,
        shoe: shoe.number,
        startedAt: new Date(now).toISOString(),
        clientSeeds: offered.length > 0 ? offered.map((o) => ({ seat: o.seat, clientSeed: o.clientSeed })) : seeds.map((seat) => ({ seat, clientSeed: seat })),
        startSeed,
        cut,
        cutBy: cutter ? cutter.seat : null,
        prev,
      },
      await signingKey(this.env),
    );
    this.#store.clearSeeds();
    return { shoe, record };
  }

  async #awaitBeacon(now: number): Promise<void> {
    const s = this.#state!;
    const source = await this.#beaconSource();
    const due = timeOfRound(source.chain, s.beaconRound!);
    if (now < due) return;
    const got = await fetchBeacon(source, s.beaconRound!, this.beaconFetch ? { fetch: this.beaconFetch } : {});
    if (got.ok) return this.#deal(got.value, this.#now());
    const late = sharedTiming(this.env).beaconLateMs;
    if (this.#now() > due + late) return this.#void(`beacon round ${s.beaconRound} did not come within ${late / 1000} s of its time: ${got.error.message}`);
    console.warn(`punto-banco: ${s.config.tableId} round ${s.round}: ${got.error.message} (asking again)`);
  }

  async #deal(beacon: BeaconRound, now: number): Promise<void> {
    const s = this.#state!;
    const key = await signingKey(this.env);
    const close = this.#store.record(s.round, 'shared-close')!;
    const accepted = this.#store.bets(s.round, 'accepted');
    const shoe = s.shoe;
    const reshuffle = shoe.params.mode === 'reshuffle';
    const base = reshuffle
      ? sharedShoe(shoe.params, shoe.serverSeed, shoe.startSeed!, shoe.cut!)
      : { rules: shoe.params, cards: shoe.stack!, burned: shoe.burned, cutCardAt: shoe.cutCardAt, next: shoe.next, rounds: shoe.rounds };
    const dealt = dealSharedRound(base, shoe.serverSeed, shoe.startSeed!, s.round, beacon.randomness);
    if (!dealt.ok) throw new Error(`${s.config.tableId}: ${dealt.error.message}`);
    const view = roundView(dealt.value.round);
    const result = await signRecord(
      {
        type: 'shared-result',
        version: FAIRNESS_VERSION,
        table: s.config.tableId,
        shoe: shoe.number,
        round: s.round,
        beacon: { round: beacon.round, randomness: beacon.randomness, signature: beacon.signature },
        dealt: view,
        positions: { first: base.next, next: dealt.value.shoe.next },
        cutCardOut: !reshuffle && dealt.value.cutCardOut,
        close: close.record.hash,
        dealtAt: new Date(now).toISOString(),
        prev: close.record.hash,
      },
      key,
    );
    const settlements = await Promise.all(
      accepted.map(async (b) => {
        const settled = settle(b.bets, dealt.value.round.outcome);
        const credit = settled.returned > 0 ? transferId(s.config.tableId, s.round, b.player, 'credit') : null;
        const record = await signRecord(
          {
            type: 'shared-settlement',
            version: FAIRNESS_VERSION,
            table: s.config.tableId,
            shoe: shoe.number,
            round: s.round,
            seat: b.seat,
            outcome: dealt.value.round.outcome,
            bets: settled.bets,
            staked: settled.staked,
            returned: settled.returned,
            debit: transferId(s.config.tableId, s.round, b.player, 'debit'),
            credit,
            result: result.hash,
          },
          key,
        );
        return { bet: b, settled, credit, record };
      }),
    );
    const rounds = shoe.rounds + 1;
    const ends = reshuffle ? rounds >= RESHUFFLE_ROUNDS_PER_SHOE : dealt.value.cutCardOut;
    const ending = ends ? await this.#endShoe(s, { ...shoe, rounds }, result.hash, now) : null;
    const nextShoe: ShoeState = ending
      ? ending.next
      : reshuffle
        ? { ...shoe, rounds }
        : { ...shoe, rounds, stack: [...dealt.value.shoe.cards], next: dealt.value.shoe.next };
    const last = { round: s.round, result };
    this.ctx.storage.transactionSync(() => {
      this.#store.insertRecord(shoe.number, s.round, null, result);
      for (const x of settlements) {
        this.#store.insertRecord(shoe.number, s.round, x.bet.seat, x.record);
        if (x.credit) this.#store.insertTransfer({ id: x.credit, player: x.bet.player, round: s.round, kind: 'credit', amount: x.settled.returned });
      }
      if (ending) {
        this.#store.insertRecord(shoe.number, s.round, null, ending.reveal);
        this.#store.insertRecord(ending.next.number, s.round, null, ending.next.commitment);
      }
      this.#nextRound({ ...s, shoe: nextShoe, head: ending ? ending.next.commitment.hash : result.hash, last }, now);
    });
    this.#broadcast('deal', { round: s.round, result, ...(ending ? { reveal: ending.reveal, nextShoe: this.#shoeView(ending.next) } : {}) });
    for (const x of settlements) this.#toPlayer(x.bet.player, 'settlement', { round: s.round, settlement: x.record });
    this.#announceWindow();
    await this.#retryTransfers();
  }

  /** The round voids (the beacon is late): every stake goes back, each with its own refund transfer and signed record. */
  async #void(reason: string): Promise<void> {
    const s = this.#state!;
    const key = await signingKey(this.env);
    const close = this.#store.record(s.round, 'shared-close')!;
    const accepted = this.#store.bets(s.round, 'accepted');
    const now = this.#now();
    const voided = await signRecord(
      { type: 'shared-void', version: FAIRNESS_VERSION, table: s.config.tableId, shoe: s.shoe.number, round: s.round, reason, beaconRound: s.beaconRound, close: close.record.hash, voidedAt: new Date(now).toISOString(), prev: close.record.hash },
      key,
    );
    const refunds = await Promise.all(
      accepted.map(async (b) => {
        const id = transferId(s.config.tableId, s.round, b.player, 'refund');
        const record = await signRecord(
          { type: 'shared-refund', version: FAIRNESS_VERSION, table: s.config.tableId, shoe: s.shoe.number, round: s.round, seat: b.seat, staked: b.stake, returned: b.stake, refund: id, void: voided.hash },
          key,
        );
        return { bet: b, id, record };
      }),
    );
    this.ctx.storage.transactionSync(() => {
      this.#store.insertRecord(s.shoe.number, s.round, null, voided);
      for (const r of refunds) {
        this.#store.insertRecord(s.shoe.number, s.round, r.bet.seat, r.record);
        this.#store.insertTransfer({ id: r.id, player: r.bet.player, round: s.round, kind: 'refund', amount: r.bet.stake });
      }
      this.#nextRound({ ...s, head: voided.hash }, now);
    });
    this.#broadcast('void', { round: s.round, void: voided });
    for (const r of refunds) this.#toPlayer(r.bet.player, 'refund', { round: s.round, refund: r.record });
    this.#announceWindow();
    await this.#retryTransfers();
  }

  /** After a round: the next window when someone is connected, else sleep. (Inside the step's transaction.) */
  #nextRound(s: TableState, now: number): void {
    const open = this.ctx.getWebSockets().length > 0;
    this.#save({ ...s, round: s.round + 1, phase: open ? 'betting' : 'idle', closesAt: open ? now + s.config.windowMs : null, beaconRound: null });
  }

  #announceWindow(): void {
    const s = this.#state!;
    if (s.phase === 'betting') this.#broadcast('open', { round: s.round, closesAt: new Date(s.closesAt!).toISOString() });
  }

  async #endShoe(s: TableState, shoe: ShoeState, prev: string, now: number) {
    const key = await signingKey(this.env);
    const reveal = await signRecord(
      { type: 'shared-reveal', version: FAIRNESS_VERSION, table: s.config.tableId, shoe: shoe.number, serverSeed: shoe.serverSeed, rounds: shoe.rounds, revealedAt: new Date(now).toISOString(), prev },
      key,
    );
    const next = await this.#commitShoe(s.config, shoe.number + 1, reveal.hash, now);
    return { reveal, next };
  }

  async #commitShoe(config: TableConfig, number: number, prev: string | null, now: number): Promise<ShoeState> {
    const params: ShoeParams = { ...DEFAULT_SHOE_PARAMS, mode: config.mode };
    const serverSeed = newServerSeed((n) => crypto.getRandomValues(new Uint8Array(n)));
    const commitment = await signRecord(
      {
        type: 'shared-commitment',
        version: FAIRNESS_VERSION,
        table: config.tableId,
        shoe: number,
        params,
        limits: ROOMS[config.room].limits,
        serverSeedHash: seedCommitment(serverSeed),
        committedAt: new Date(now).toISOString(),
        prev,
      },
      await signingKey(this.env),
    );
    return { number, params, serverSeed, commitment, startSeed: null, cut: null, stack: null, next: 0, burned: 0, cutCardAt: 0, rounds: 0 };
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
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...times));
  }

  // ---- money: exactly-once transfers with the players' sessions --------------------------------------

  async #retryTransfers(): Promise<void> {
    const pending = this.#store.pendingTransfers(RETRY_BATCH);
    await Promise.all(pending.map((t) => this.#runTransfer(t)));
  }

  /** Asks the session to apply `t` (idempotent on its side) and records the answer; a fault leaves it pending. */
  async #runTransfer(t: TransferRow): Promise<void> {
    const s = this.#state!;
    const ask: Transfer = { id: t.id, table: s.config.tableId, round: t.round, kind: t.kind, amount: t.amount };
    let outcome: TransferOutcome;
    try {
      outcome = await this.env.TABLES.getByName(t.player).sharedTransfer(ask);
    } catch (err) {
      console.warn(`punto-banco: ${s.config.tableId}: transfer ${t.id} to ${t.kind} ${t.amount} is pending (retried on the next alarm):`, (err as Error).message);
      await this.#schedule();
      return;
    }
    const now = this.#now();
    let late = false;
    this.ctx.storage.transactionSync(() => {
      const current = this.#store.transfer(t.id);
      if (!current || current.status !== 'pending') return;
      this.#store.setTransferStatus(t.id, outcome.ok ? 'applied' : 'refused');
      if (t.kind !== 'debit') return;
      const bet = this.#store.bet(t.round, t.player);
      if (!bet || bet.status !== 'debiting') return;
      const st = this.#state!;
      const open = st.phase === 'betting' && st.round === t.round && now < (st.closesAt ?? 0);
      if (!outcome.ok) this.#store.setBetStatus(t.round, t.player, 'refused');
      else if (open) this.#store.setBetStatus(t.round, t.player, 'accepted');
      else {
        // Debited after the close: the bet is not in the round, its stake goes straight back.
        late = true;
        this.#store.setBetStatus(t.round, t.player, 'late');
        this.#store.insertTransfer({ id: transferId(st.config.tableId, t.round, t.player, 'refund'), player: t.player, round: t.round, kind: 'refund', amount: t.amount });
      }
    });
    const balance = outcome.balance;
    if (t.kind === 'debit') {
      const bet = this.#store.bet(t.round, t.player)!;
      if (bet.status === 'accepted') {
        this.#toPlayer(t.player, 'bet-ack', { round: t.round, betId: bet.betId, seat: bet.seat, stake: bet.stake, balance });
        this.#broadcast('bet', { round: t.round, seat: bet.seat, stake: bet.stake });
      } else if (bet.status === 'refused') {
        this.#toPlayer(t.player, 'bet-refused', { round: t.round, betId: bet.betId, code: outcome.ok ? 'refused' : outcome.code, message: outcome.ok ? '' : outcome.message, balance });
      } else if (late) {
        this.#toPlayer(t.player, 'bet-refused', { round: t.round, betId: bet.betId, code: 'betting_closed', message: 'betting closed before your stake was taken: it is returned' });
        await this.#schedule();
      }
    } else if (outcome.ok) {
      this.#toPlayer(t.player, 'balance', { balance, transfer: t.id, kind: t.kind, round: t.round });
    }
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** The table's books: every transfer by player (tests and audits compare them with the sessions'). */
  async books(): Promise<SharedBooks | null> {
    const s = this.#state;
    if (!s) return null;
    const players: SharedBooks['players'] = {};
    let houseNet = 0;
    let pending = 0;
    for (const t of this.#store.transfers()) {
      const p = (players[t.player] ??= { debited: 0, credited: 0, refunded: 0, pending: 0 });
      if (t.status === 'pending') {
        p.pending++;
        pending++;
        continue;
      }
      if (t.status !== 'applied') continue;
      if (t.kind === 'debit') {
        p.debited += t.amount;
        houseNet += t.amount;
      } else {
        if (t.kind === 'credit') p.credited += t.amount;
        else p.refunded += t.amount;
        houseNet -= t.amount;
      }
    }
    return { tableId: s.config.tableId, round: s.round, phase: s.phase, players, houseNet, pending };
  }

  /** Whether an alarm is set (tests: a table with no activity holds none). */
  async alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  #publicState(s: TableState) {
    const bets = s.phase === 'idle' ? [] : this.#store.bets(s.round, 'accepted').map((b) => ({ seat: b.seat, stake: b.stake }));
    return {
      tableId: s.config.tableId,
      room: s.config.room,
      mode: s.config.mode,
      speed: s.config.speed,
      windowMs: s.config.windowMs,
      limits: ROOMS[s.config.room].limits,
      round: s.round,
      phase: s.phase,
      closesAt: s.closesAt === null ? null : new Date(s.closesAt).toISOString(),
      beaconRound: s.beaconRound,
      close: s.phase === 'awaiting-beacon' ? this.#store.record(s.round, 'shared-close')?.record ?? null : null,
      bets,
      players: this.ctx.getWebSockets().length,
      shoe: this.#shoeView(s.shoe),
      last: s.last,
    };
  }

  #shoeView(shoe: ShoeState) {
    const start = shoe.startSeed === null ? null : this.#store.records(shoe.number).find((r) => r.kind === 'shared-start')?.record ?? null;
    const cardsLeft = shoe.stack === null ? null : shoe.params.mode === 'shoe' ? shoe.stack.length - shoe.next : null;
    return { number: shoe.number, params: shoe.params, rounds: shoe.rounds, commitment: shoe.commitment, start, cardsLeft, cutCardAt: shoe.stack === null ? null : shoe.cutCardAt, next: shoe.next };
  }

  #you(s: TableState, player: string, seat: string, balance: number | null) {
    const mine = this.#store.bet(s.round, player);
    return { seat, ...(balance === null ? {} : { balance }), bet: mine && mine.status !== 'refused' ? { betId: mine.betId, bets: mine.bets, stake: mine.stake, status: mine.status } : null };
  }

  // ---- internals ------------------------------------------------------------------------------------

  async #ensure(config: TableConfig): Promise<TableState> {
    if (this.#state) return this.#state;
    return this.#exclusive(async () => {
      if (this.#state) return this.#state;
      const now = this.#now();
      const shoe = await this.#commitShoe(config, 1, null, now);
      const salt = bytesToHex(crypto.getRandomValues(new Uint8Array(16)));
      const state: TableState = { config, salt, round: 1, phase: 'idle', closesAt: null, beaconRound: null, head: shoe.commitment.hash, shoe, last: null };
      this.ctx.storage.transactionSync(() => {
        this.#store.insertRecord(1, 0, null, shoe.commitment);
        this.#save(state);
      });
      return state;
    });
  }

  #save(state: TableState): void {
    this.#store.saveState(state);
    this.#state = state;
  }

  #seat(s: TableState, player: string): string {
    return `p-${bytesToHex(sha256(utf8ToBytes(`${s.salt}\n${player}`))).slice(0, 10)}`;
  }

  async #beaconSource() {
    const source = await beaconSource(this.env);
    if (!source.ok) throw new Error(`the beacon is misconfigured: ${source.error.message}`);
    return source.value;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #broadcast(type: string, body: object): void {
    const text = outgoing(type, body);
    for (const ws of this.ctx.getWebSockets()) trySend(ws, text);
  }

  #toPlayer(player: string, type: string, body: object): void {
    const text = outgoing(type, body);
    for (const ws of this.ctx.getWebSockets(player)) trySend(ws, text);
  }

  #now(): number {
    return Date.now();
  }
}

/** A transfer's id: the same movement of the same round always has the same id, on both sides. */
export function transferId(tableId: string, round: number, player: string, kind: TransferKind): string {
  return bytesToHex(sha256(utf8ToBytes(`pb-shared/transfer\n${tableId}\n${round}\n${player}\n${kind}`)));
}

function send(ws: WebSocket, type: string, body: object): void {
  trySend(ws, outgoing(type, body));
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

