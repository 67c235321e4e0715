/**
 * `SharedTable`: one Durable Object per shared table, addressed by its table id
 * (`hall-1/a`, settings.ts). Players connect by WebSocket through the Hibernation API
 * (`ctx.acceptWebSocket`): an idle table is evicted from memory and costs nothing; each socket is
 * tagged with its session id, and its attachment says whose it is. The table holds the round and
 * signs its pb-shared-1 records (shared/fairness/shared-table, FAIRNESS.md part III); each
 * player's money stays in their session object (`Table`), moved only by exactly-once transfers
 * (transfers.ts here, wallet.ts the session's half). Players sign their own start and bet requests; their key is their pseudonym.
 *
 * The parts, one file each: the sockets (sockets.ts), the seats (seats.ts), the betting window's
 * requests (betting.ts), the round loop on the alarm: close, deal or void, reveal (round.ts), the
 * transfers with the sessions (transfers.ts), the public state (public-state.ts), the rows
 * (store.ts). This file is the object: its HTTP and WebSocket handlers, its alarm, its state.
 *
 * Crash safety: every step is one `transactionSync` writing its records and the next state
 * together, re-entered from the stored state by the next alarm (the platform re-runs an alarm that
 * threw; a restart finds the stored alarm, and any request re-arms what the state needs). A
 * transfer is written as pending before the session is asked and settled when its answer is
 * recorded; pending ones are asked again, with the same id, on every alarm. With nobody connected
 * and nothing owed, no alarm is left: the table sleeps.
 */
import { DurableObject } from 'cloudflare:workers';
import { timeOfRound } from '../../shared/beacon.ts';
import {
  type ClientMessage,
  clientMessageText,
  MAX_SEATS,
  MESSAGE_RATE,
  parseClientMessage,
  type ServerMessage,
  serverMessageText,
  type SharedTablePhase,
} from '../../shared/wire/shared-table-socket.ts';
import { beaconSource, type BeaconSource, type Fetcher } from '../beacon/beacon.ts';
import { configuredTables, type Env, isDev, seatsPerAddress, sharedTiming } from '../config/env.ts';
import { addressKey, TokenBucket } from '../http/limits.ts';
import { Betting } from './betting.ts';
import type { SharedTableHooks, SharedTableParts, TableState } from './parts.ts';
import { publicState, seatOf } from './public-state.ts';
import { RoundLoop } from './round.ts';
import { Seats } from './seats.ts';
import { MAX_SOCKETS, MAX_SOCKETS_PER_PLAYER, parseTableId, RETRY_MS, type TableConfig } from './settings.ts';
import { type Attachment, attachment, logFault, send, trySend } from './sockets.ts';
import { SharedStore } from './store.ts';
import { TableTransfers } from './transfers.ts';

/** The bench's seats per table (`SHARED_TEST_SEATS`, honoured only with DEV=true), or null. */
function testSeats(env: Env): number | null {
  const asked = Number(env.SHARED_TEST_SEATS ?? '');
  return isDev(env) && Number.isSafeInteger(asked) && asked >= 1 ? asked : null;
}

export interface SharedBooks {
  tableId: string;
  shoe: number;
  round: number;
  phase: SharedTablePhase;
  /** Per session: what the table has taken and given back (applied transfers), and how many are still pending. */
  sessions: Record<string, { debited: number; credited: number; refunded: number; pending: number }>;
  /** Stakes taken minus everything paid back: the house's result at this table. */
  houseNet: number;
  pending: number;
}

export class SharedTable extends DurableObject<Env> implements SharedTableHooks {
  readonly #store: SharedStore;
  #state: TableState | null;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #buckets = new WeakMap<WebSocket, TokenBucket>();
  readonly #parts: SharedTableParts;
  readonly #seats: Seats;
  readonly #transfers: TableTransfers;
  readonly #betting: Betting;
  readonly #round: RoundLoop;
  /** Tests play a late or failing beacon relay through this. */
  beaconFetch: Fetcher | undefined;
  /** Seats of this table (MAX_SEATS; tests fill a smaller table). */
  seatCap = MAX_SEATS;
  /** How long a seat goes without a bet before it is idle; null: IDLE_ROUNDS betting windows (tests set 0). */
  idleMs: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new SharedStore(ctx.storage.sql);
    this.seatCap = testSeats(env) ?? MAX_SEATS;
    this.#state = this.#store.state<TableState>();
    // The settings are read through the object each time: tests swap them on a live instance.
    const settings = () => this.env;
    this.#parts = {
      ctx,
      get env() {
        return settings();
      },
      store: this.#store,
      hooks: this,
      state: () => this.#state!,
      save: (state) => this.#save(state),
      now: () => this.#now(),
      schedule: () => this.#schedule(),
      beaconSource: () => this.#beaconSource(),
      broadcast: (m) => this.#broadcast(m),
      toSession: (session, m) => this.#toSession(session, m),
    };
    this.#seats = new Seats(this.#parts);
    this.#transfers = new TableTransfers(this.#parts);
    this.#betting = new Betting(this.#parts, this.#seats, this.#transfers);
    this.#round = new RoundLoop(this.#parts, this.#seats, this.#transfers);
    // Keep-alive pings are answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(clientMessageText({ type: 'ping' }), serverMessageText({ type: 'pong' })));
  }

  // ---- HTTP (from the Worker: routes.ts has checked the table id and the player's token) ----

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
    return Response.json(publicState(this.#parts, state));
  }

  #connect(request: Request, state: TableState): Response {
    const session = request.headers.get('X-Player-Session') ?? '';
    const balance = Number(request.headers.get('X-Player-Balance') ?? '0');
    // An IPv6 address counts by its /64, as the rate limits count it.
    const address = addressKey(request.headers.get('CF-Connecting-IP') ?? 'unknown');
    const mine = this.ctx.getWebSockets(session);
    if (mine.length === 0) {
      // A new seat: within the address's share, and on a full table only in place of an idle seat.
      const seats = this.#seats.all();
      const fromAddress = [...seats.values()].filter((seat) => seat.address === address).length;
      const cap = seatsPerAddress(this.env);
      if (fromAddress >= cap) {
        return Response.json(
          { error: { code: 'too_many_seats', message: `${cap} sessions from your address sit at this table already: leave one, or try another table` } },
          { status: 429 },
        );
      }
      if (seats.size >= this.seatCap && !this.#seats.releaseIdle(seats, state)) {
        return Response.json(
          { error: { code: 'table_full', message: `this table seats ${this.seatCap} players, none of them idle: try another table` } },
          { status: 503 },
        );
      }
    }
    const maxSockets = Math.max(MAX_SOCKETS, this.seatCap);
    if (this.ctx.getWebSockets().length >= maxSockets) {
      return Response.json({ error: { code: 'table_full', message: `this table holds ${maxSockets} connections: try another table` } }, { status: 503 });
    }
    // A player's oldest tabs give way beyond the bound: a reconnect is never locked out.
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_SOCKETS_PER_PLAYER + 1))) old.close(4000, 'replaced by a newer connection');
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [session]);
    const now = this.#now();
    pair[1].serializeAttachment({ session, address, active: Math.max(now, ...mine.map((w) => attachment(w).active)) } satisfies Attachment);
    pair[1].send(serverMessageText({ type: 'state', ...publicState(this.#parts, state), you: seatOf(this.#parts, state, session, balance) }));
    this.#exclusive(async () => {
      if (this.#state!.phase === 'idle') await this.#round.openWindow(this.#now());
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
        return send(ws, { type: 'state', ...publicState(this.#parts, state), you: seatOf(this.#parts, state, who.session, null) });
      case 'start':
        return this.#betting.start(ws, who, m.request);
      case 'bet':
        return this.#betting.bet(ws, who, m.request);
    }
  }

  // ---- the alarm: the round loop --------------------------------------------------------------------

  override async alarm(): Promise<void> {
    await this.#exclusive(async () => {
      if (!this.#state) return;
      await this.#transfers.retry();
      const now = this.#now();
      const s = this.#state;
      if (s.phase === 'betting' && now >= (s.closesAt ?? 0)) await this.#round.close(now);
      else if (s.phase === 'awaiting-beacon') await this.#round.awaitBeacon(now);
      await this.#schedule();
    });
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

  // ---- internals ------------------------------------------------------------------------------------

  async #ensure(config: TableConfig): Promise<TableState> {
    if (this.#state) return this.#state;
    return this.#exclusive(async () => {
      if (this.#state) return this.#state;
      const { shoe, commitment } = await this.#round.commitShoe(config, 1, null, this.#now());
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
